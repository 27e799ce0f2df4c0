export function availableScreen(): [number, number, number, number] {
  const area = window.screen as Screen & { availTop?: number; availLeft?: number }
  return [area.availWidth, area.availHeight, area.availTop ?? 0, area.availLeft ?? 0]
}
