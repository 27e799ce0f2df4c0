export function cookiesEnabled(): boolean {
  return navigator.cookieEnabled
}
