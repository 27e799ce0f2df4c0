export function colorDepth(): [number, number] {
  return [window.screen.colorDepth, window.screen.pixelDepth]
}
