import 'server-only'
import ipaddr from 'ipaddr.js'

/**
 * The key of a client address in per-address budgets: an IPv4 address itself (also when written
 * as IPv4-mapped IPv6), an IPv6 address by its /64. One subscriber usually holds a whole /64, so
 * keying on the exact address would give each of its 2^64 addresses a budget of its own.
 */
export function addressKey(ip: string | null): string {
  if (!ip || !ipaddr.isValid(ip)) return ip ?? 'unknown'
  const address = ipaddr.process(ip)
  if (address.kind() === 'ipv4') return address.toString()
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`)
  return `${prefix.toString()}/64`
}
