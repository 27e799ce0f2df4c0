export function sessionStorage(): boolean {
  try {
    return !!window.sessionStorage
  } catch {
    return false
  }
}
