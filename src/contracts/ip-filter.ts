import ipaddr from 'ipaddr.js'

/**
 * An address filter as the search APIs take it: one address (normalised, as stored) or a CIDR range
 * (`10.0.0.0/24`, in the form PostgreSQL's inet reads); null for anything else, which the contracts
 * refuse with a 400 rather than search for what nothing can match.
 */
export function parseIpFilter(value: string): { ip: string } | { ipRange: string } | null {
  const [address = '', bits, ...rest] = value.split('/')
  const valid =
    rest.length === 0 &&
    (ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address)) &&
    (bits === undefined || /^\d{1,3}$/.test(bits))
  const parsed = valid ? ipaddr.process(address) : undefined
  const maxBits = parsed?.kind() === 'ipv4' ? 32 : 128
  if (!parsed || (bits !== undefined && Number(bits) > maxBits)) return null
  if (bits === undefined || Number(bits) === maxBits) return { ip: parsed.toString() }
  return { ipRange: `${parsed.toString()}/${bits}` }
}

export const IP_FILTER_MESSAGE = 'Use an IP address or a CIDR range like 10.0.0.0/24.'
