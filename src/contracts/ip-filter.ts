import ipaddr from 'ipaddr.js'

/**
 * An address filter as the search APIs take it: one address (normalised, as stored: an IPv4-mapped
 * IPv6 address as its IPv4 form) or a CIDR range (`10.0.0.0/24`, in the form PostgreSQL's inet
 * reads); null for anything else, which the contracts refuse with a 400 rather than search for what
 * nothing can match (or hand the database a range it cannot read: a zone id, a prefix length with a
 * leading zero).
 */
export function parseIpFilter(value: string): { ip: string } | { ipRange: string } | null {
  const [address = '', bits, ...rest] = value.split('/')
  const valid =
    rest.length === 0 &&
    !address.includes('%') &&
    (ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address)) &&
    (bits === undefined || /^(0|[1-9]\d{0,2})$/.test(bits))
  if (!valid) return null
  const parsed = ipaddr.process(address)
  // An IPv4-mapped address became its IPv4 form: its prefix counts the last 32 of the 128 bits.
  const mapped = parsed.kind() === 'ipv4' && ipaddr.IPv6.isValid(address)
  const prefix = bits === undefined ? undefined : Number(bits) - (mapped ? 96 : 0)
  const maxBits = parsed.kind() === 'ipv4' ? 32 : 128
  if (prefix !== undefined && (prefix < 0 || prefix > maxBits)) return null
  if (prefix === undefined || prefix === maxBits) return { ip: parsed.toString() }
  return { ipRange: `${parsed.toString()}/${prefix}` }
}

export const IP_FILTER_MESSAGE = 'Use an IP address or a CIDR range like 10.0.0.0/24.'
