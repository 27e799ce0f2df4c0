/** scheme://host[:port], nothing else: what browsers send in Origin and frame-ancestors accepts. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
  } catch {
    return false
  }
}
