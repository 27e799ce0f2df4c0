export function userAgent(): string {
  return navigator.userAgent
}
