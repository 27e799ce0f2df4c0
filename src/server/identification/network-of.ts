import ipaddr from 'ipaddr.js'
import { type AddressInfo, lookUpAddress } from '../network/network-data'

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

/** Where an address is, as matching weighs it: its operator (autonomous system) and its country. */
export interface Place {
  asn: number | null
  country: string | null
}

/** AS numbers from here on are private-use or reserved: no operator (RFC 6996, RFC 7300). */
const PRIVATE_ASNS = 4_200_000_000

/** An address's operator and country, by the offline data; nulls where it has none. */
export function placeOf(ip: string | null, info: AddressInfo | null = ip ? lookUpAddress(ip) : null): Place {
  const asn = info?.autonomousSystem?.asn
  const operator = asn && asn < PRIVATE_ASNS && !(asn >= 64_512 && asn <= 65_535) ? asn : null
  return { asn: operator, country: info?.geolocation?.countryCode ?? null }
}
