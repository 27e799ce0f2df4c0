import ipaddr from 'ipaddr.js'

/** An IPv4 address in its four-part form (not "1.2.3") or an IPv6 one, IPv4-mapped ones as IPv4; null otherwise. */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text) ? ipaddr.process(text) : null
}

/**
 * An address ("203.0.113.7", "2001:db8::1") or a CIDR range ("203.0.113.0/24") in one canonical
 * text: the range's own network address ("10.1.2.3/8" → "10.0.0.0/8"), a whole-length prefix as the
 * bare address, IPv4-mapped IPv6 as IPv4. Null for anything else ("1.2.3" included).
 */
export function normaliseNetwork(text: string): string | null {
  const [address = '', bits, ...rest] = text.trim().split('/')
  if (rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return null
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return null
  // An IPv4-mapped range ("::ffff:192.0.2.0/120") is refused: its prefix counts IPv6 bits, and
  // read as IPv4 it would block another range than written. As an IPv4 range it is unambiguous.
  const raw = ipaddr.parse(address)
  if (bits !== undefined && raw.kind() === 'ipv6' && (raw as ipaddr.IPv6).isIPv4MappedAddress()) return null
  const parsed = ipaddr.process(address)
  const width = parsed.kind() === 'ipv4' ? 32 : 128
  const prefix = bits === undefined ? width : Number(bits)
  if (prefix > width) return null
  if (prefix === width) return parsed.toString()
  const network =
    parsed.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`)
  return `${network.toString()}/${prefix}`
}

/** The first of `networks` (normalised entries) that holds `address`; null when none does or it does not parse. */
export function matchingNetwork(address: string, networks: readonly string[]): string | null {
  const parsed = parseAddress(address)
  if (!parsed) return null
  for (const { entry, network, prefix } of parsedNetworks(networks))
    if (network.kind() === parsed.kind() && parsed.match(network, prefix)) return entry
  return null
}

interface ParsedNetwork {
  entry: string
  network: ipaddr.IPv4 | ipaddr.IPv6
  prefix: number
}

/** Lists parsed once: a site's list is one array for as long as the site is cached. */
const parsedLists = new WeakMap<readonly string[], ParsedNetwork[]>()

function parsedNetworks(networks: readonly string[]): ParsedNetwork[] {
  const known = parsedLists.get(networks)
  if (known) return known
  const parsed = networks.flatMap((entry) => {
    const [base = '', bits] = entry.split('/')
    // A list may hold visitor IDs and @domains too (list-entry.ts): only an address in its
    // written form is one ("12345678" is a visitor ID, never the address it would parse as).
    if (!ipaddr.IPv4.isValidFourPartDecimal(base) && !ipaddr.IPv6.isValid(base)) return []
    const network = ipaddr.process(base)
    const prefix = bits === undefined ? (network.kind() === 'ipv4' ? 32 : 128) : Number(bits)
    return [{ entry, network, prefix }]
  })
  parsedLists.set(networks, parsed)
  return parsed
}
