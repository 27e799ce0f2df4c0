import 'server-only'
import ipaddr from 'ipaddr.js'

export type Address = ipaddr.IPv4 | ipaddr.IPv6

/**
 * Who may add to X-Forwarded-For (TESSERA_TRUSTED_PROXIES): a number of proxies in front of
 * Tessera, or the proxies' own addresses and ranges. With addresses, an entry is believed only
 * when the hop that added it is one of them, so a client that reaches Tessera directly (or
 * through an untrusted hop) cannot choose its address, however many proxies there are.
 */
export type TrustedProxies = { count: number } | { ranges: Array<[Address, number]> }

/** Parses "2", or "10.0.0.0/8, 192.0.2.7, ::1": an error message for anything else. */
export function parseTrustedProxies(value: string): TrustedProxies | { error: string } {
  const text = value.trim()
  if (/^\d+$/.test(text)) {
    const count = Number(text)
    return count <= 10 ? { count } : { error: 'a number of proxies must be at most 10.' }
  }
  const ranges: Array<[Address, number]> = []
  for (const entry of text.split(',').map((part) => part.trim())) {
    try {
      ranges.push(
        entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), entry.includes(':') ? 128 : 32],
      )
    } catch {
      return { error: `"${entry}" is neither a number of proxies nor an IP address or CIDR range.` }
    }
  }
  return { ranges }
}

/** Whether any proxy is trusted (X-Forwarded-Host and X-Forwarded-Proto are then believed). */
export function trustsProxies(trusted: TrustedProxies): boolean {
  return 'count' in trusted ? trusted.count > 0 : trusted.ranges.length > 0
}

/**
 * Whether a connection from `socketAddress` is a trusted proxy's, whose forwarding headers count.
 * With a count, every connection is (the operator says all traffic comes through that many
 * proxies); with addresses, only one from a trusted address.
 */
export function cameThroughTrustedProxy(socketAddress: string | undefined, trusted: TrustedProxies): boolean {
  if ('count' in trusted) return trusted.count > 0
  return socketAddress !== undefined && isTrustedProxy(socketAddress, trusted.ranges)
}

/** Whether `entry` is an address within one of the trusted ranges. */
export function isTrustedProxy(entry: string, ranges: Array<[Address, number]>): boolean {
  const address = parseAddress(entry)
  return (
    address !== undefined &&
    ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits))
  )
}

function parseAddress(entry: string): Address | undefined {
  try {
    return ipaddr.process(entry.trim())
  } catch {
    return undefined
  }
}
