/** Outer and inner window sizes and position; automation often leaves impossible combinations. */
export function windowGeometry() {
  return {
    outer: [window.outerWidth, window.outerHeight],
    inner: [window.innerWidth, window.innerHeight],
    position: [window.screenX, window.screenY],
    viewport: window.visualViewport ? Math.round(window.visualViewport.scale * 100) / 100 : null,
  }
}
