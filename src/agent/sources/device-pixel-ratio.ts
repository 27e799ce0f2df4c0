export function devicePixelRatio(): number {
  return window.devicePixelRatio
}
