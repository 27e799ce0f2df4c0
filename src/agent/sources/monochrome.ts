/** Bits per pixel of a monochrome display, 0 for colour; the media query only takes numbers. */
export function monochrome(): number {
  for (let bits = 0; bits <= 16; bits++) {
    if (window.matchMedia(`(monochrome: ${bits})`).matches) return bits
  }
  return -1
}
