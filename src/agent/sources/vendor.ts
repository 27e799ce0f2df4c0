export function vendor(): string {
  return navigator.vendor
}
