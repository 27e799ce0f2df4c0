import ipaddr from 'ipaddr.js'
import { lookUpAutonomousSystem } from '../network/network-data'

/**
 * The network an address belongs to, as matching and learning group addresses: the /24 of an IPv4
 * address, the /56 of an IPv6 one (what a home or an office is usually given). An address that does
 * not parse is its own network.
 */
export function networkOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip
  const address = ipaddr.process(ip)
  const prefix = address.kind() === 'ipv4' ? 24 : 56
  const bytes = address.toByteArray()
  const kept = bytes.map((byte, index) => {
    const bits = Math.min(Math.max(prefix - index * 8, 0), 8)
    return byte & (0xff << (8 - bits)) & 0xff
  })
  return `${ipaddr.fromByteArray(kept).toString()}/${prefix}`
}

/** The autonomous system an address belongs to, by the offline AS data; null when it has none. */
export function asnOf(ip: string | null): number | null {
  return (ip && lookUpAutonomousSystem(ip)?.asn) || null
}
