export function indexedDb(): boolean {
  try {
    return !!window.indexedDB
  } catch {
    return false
  }
}
