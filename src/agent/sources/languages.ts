export function languages(): string[] {
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language]
}
