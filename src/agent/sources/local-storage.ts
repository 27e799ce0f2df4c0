export function localStorage(): boolean {
  try {
    return !!window.localStorage
  } catch {
    return false
  }
}
