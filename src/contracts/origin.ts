/** scheme://host[:port], nothing else: what browsers send in Origin and frame-ancestors accepts. */
export function isOrigin(value: string): boolean {
  return normaliseOrigin(value) === value
}

/**
 * An origin as browsers send it, from what an operator may type for one: a trailing slash, capital
 * letters in the host and a default port are dropped (`HTTPS://Shop.Example:443/` is
 * `https://shop.example`). Anything more (a path, a query, a fragment, credentials, another scheme)
 * is no origin: undefined.
 */
export function normaliseOrigin(value: string): string | undefined {
  if (/[?#\s]/.test(value)) return undefined
  try {
    const url = new URL(value)
    const plain = !url.username && !url.password && url.pathname === '/'
    const web = url.protocol === 'https:' || url.protocol === 'http:'
    return plain && web && url.origin !== 'null' ? url.origin : undefined
  } catch {
    return undefined
  }
}
