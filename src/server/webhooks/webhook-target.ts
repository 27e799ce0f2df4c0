import 'server-only'
import type { LookupAddress } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns/promises'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

export const PRIVATE_TARGET_MESSAGE =
  'Webhooks are delivered only to public internet addresses, not to private, local or reserved networks. ' +
  '(A test server may reach its own with TESSERA_WEBHOOK_ALLOW_PRIVATE=1: never in production, where it lets ' +
  'anyone who can add a webhook reach your internal network.)'

/** A delivery target refused before connecting: logged alike whatever is (or is not) listening there. */
export class RefusedTarget extends Error {
  constructor(reason = PRIVATE_TARGET_MESSAGE) {
    super(`Refused: ${reason}`)
  }
}

/**
 * Only global unicast addresses: ipaddr.js classifies loopback, private, CGNAT, link-local,
 * unique-local, multicast, reserved, documentation and the IPv6 forms that embed an IPv4 address
 * (NAT64, 6to4, Teredo) as other ranges; IPv4-mapped IPv6 is judged as the IPv4 it maps.
 */
export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'unicast'
}

/** `[::1]` → `::1`, `example.com.` → `example.com`: the host as an address or a name. */
function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase()
}

/**
 * Why a webhook URL cannot be used, or undefined. The WHATWG parser has already turned decimal,
 * octal and hex IPv4 spellings (http://2130706433/, http://0x7f.1/) into dotted quads; names are
 * checked again, resolved, at each delivery.
 */
export function webhookUrlProblem(value: string, { allowPrivate }: { allowPrivate: boolean }) {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'Enter an http:// or https:// URL.'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Enter an http:// or https:// URL.'
  if (url.username || url.password) {
    return 'Leave the user name and password out of the URL; receivers check the signature instead.'
  }
  if (allowPrivate) return undefined
  const host = bareHost(url.hostname)
  if (host === 'localhost' || host.endsWith('.localhost')) return PRIVATE_TARGET_MESSAGE
  if (ipaddr.isValid(host) && !isPublicAddress(host)) return PRIVATE_TARGET_MESSAGE
  return undefined
}

export type Resolve = (hostname: string) => Promise<LookupAddress[]>

const resolveAll: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/**
 * The address to connect to for `hostname`: every address it resolves to must be public (one
 * private answer among public ones is how DNS rebinding starts), unless private targets are allowed.
 */
export async function resolveTarget(
  hostname: string,
  { allowPrivate, resolve = resolveAll }: { allowPrivate: boolean; resolve?: Resolve },
): Promise<LookupAddress> {
  const host = bareHost(hostname)
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
    : await resolve(host)
  const [first] = addresses
  if (!first) throw new Error(`${host} has no address.`)
  if (!allowPrivate && addresses.some(({ address }) => !isPublicAddress(address))) throw new RefusedTarget()
  return first
}

/** A `lookup` for node:http that always answers the vetted address: no second resolution. */
export function pinnedLookup({ address, family }: LookupAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
}
