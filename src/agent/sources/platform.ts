export function platform(): string {
  return navigator.platform
}
