export function screen(): [number, number] {
  return [window.screen.width, window.screen.height]
}
