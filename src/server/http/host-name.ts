// No `server-only` and no env import: env.ts validates TESSERA_ALLOWED_HOSTS with these.

/** A name or IPv4 address, or a bracketed IPv6 address, and an optional port: a Host header's shape. */
export const HOST_HEADER = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/

/**
 * The host name of a Host (or X-Forwarded-Host) value, without its port, in the one form URLs
 * give it (lower case, IPv4 and IPv6 canonical); undefined for anything that is not host[:port].
 */
export function hostName(value: string): string | undefined {
  const host = value.trim().toLowerCase()
  if (!HOST_HEADER.test(host)) return undefined
  try {
    return new URL(`http://${host}/`).hostname
  } catch {
    return undefined
  }
}

/** An entry of TESSERA_ALLOWED_HOSTS: a host name or address (IPv6 with or without brackets), no port. */
export function allowedHostEntry(entry: string): string | undefined {
  const value = entry.trim()
  const bracketed = value.includes(':') && !value.startsWith('[') ? `[${value}]` : value
  const name = hostName(bracketed)
  return name !== undefined && new URL(`http://${bracketed.toLowerCase()}/`).port === '' ? name : undefined
}

/** A URL's host name (as `new URL().hostname` gives it) that names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'
}
