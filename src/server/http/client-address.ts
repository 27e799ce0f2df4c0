import 'server-only'
import type { IncomingMessage } from 'node:http'
import ipaddr from 'ipaddr.js'
import { getEnv } from '../env'
import { cameThroughTrustedProxy, isTrustedProxy, type TrustedProxies } from './trusted-proxies'

// The one module that owns the forwarding headers: the front (scripts/serve.mjs, through
// prepareRequest) rewrites them as a client arrives, and every handler reads the client from the
// rewritten X-Forwarded-For. Who may add to them is TESSERA_TRUSTED_PROXIES (trusted-proxies.ts).

/**
 * The caller's IP address: the entry before the trusted proxies in the X-Forwarded-For the front
 * rewrote (rewriteForwardingHeaders).
 */
export function clientAddress(headers: Headers): string | null {
  return clientInChain(headers.get('x-forwarded-for'), getEnv().TESSERA_TRUSTED_PROXIES)
}

/** What a proxy says about the browser's own request besides its address: believed only from a trusted one. */
const FORWARDED_DETAILS = ['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded'] as const

/**
 * Rewrites an arriving request's forwarding headers before anything answers it. X-Forwarded-For:
 * only what trusted proxies added, then the socket's address (`next start` would pass a client's
 * own through). X-Forwarded-Proto, -Host, -Port and Forwarded: dropped unless the connection is a
 * trusted proxy's, so a client cannot claim HTTPS (Secure cookies, HSTS) or another host.
 */
export function rewriteForwardingHeaders(
  request: IncomingMessage,
  trusted: TrustedProxies = getEnv().TESSERA_TRUSTED_PROXIES,
): void {
  const socketAddress = request.socket.remoteAddress
  const arriving = request.headers['x-forwarded-for']
  const rewritten = forwardedFor(arriving, socketAddress, trusted)
  request.headers['x-forwarded-for'] = rewritten
  const throughTrusted = cameThroughTrustedProxy(socketAddress, trusted)
  // What the network signals weigh (signals/detect-network.ts): entries no trusted proxy vouched
  // for, and a Via on a connection no trusted proxy made (a trusted one may add its own).
  const kept = splitChain(rewritten).length - (socketAddress ? 1 : 0)
  const untrusted = splitChain(arriving).length - kept
  const otherForwarding =
    !throughTrusted && (request.headers.forwarded !== undefined || request.headers['x-real-ip'] !== undefined)
  const via = !throughTrusted && request.headers.via !== undefined
  request.headers[FORWARDING_HEADER] =
    `untrusted=${Math.min(Math.max(untrusted, 0) + (otherForwarding ? 1 : 0), 9999)}; via=${via ? 1 : 0}`
  if (throughTrusted) return
  for (const name of FORWARDED_DETAILS) delete request.headers[name]
}

/** Set by the front alone (any copy a client sent is overwritten): what it dropped from the forwarding headers. */
export const FORWARDING_HEADER = 'x-tessera-forwarding'

/** What rewriteForwardingHeaders noted; none when the request did not come through the front. */
export function forwardingEvidence(headers: Headers): { untrusted: number; via: boolean } | undefined {
  const match = /^untrusted=(\d{1,4}); via=([01])$/.exec(headers.get(FORWARDING_HEADER) ?? '')
  return match ? { untrusted: Number(match[1]), via: match[2] === '1' } : undefined
}

function splitChain(header: string | string[] | null | undefined): string[] {
  return (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
}

/**
 * The X-Forwarded-For the front (scripts/serve.mjs) hands on: the entries the trusted proxies
 * added, then the socket's own address. Everything a client wrote itself is dropped.
 */
export function forwardedFor(
  header: string | string[] | undefined,
  socketAddress: string | undefined,
  trusted: TrustedProxies,
): string {
  const chain = splitChain(header)
  const kept: string[] = socketAddress ? [socketAddress] : []
  if ('count' in trusted) {
    if (trusted.count > 0) kept.unshift(...chain.slice(-trusted.count))
  } else {
    // Walk back from the socket: each trusted hop vouches for the entry before it.
    let hop = socketAddress ?? ''
    for (let index = chain.length - 1; index >= 0 && isTrustedProxy(hop, trusted.ranges); index--) {
      hop = chain[index] ?? ''
      kept.unshift(hop)
    }
  }
  return kept.join(', ')
}

/** The client's address in an X-Forwarded-For the front has rewritten (forwardedFor). */
export function clientInChain(header: string | null, trusted: TrustedProxies): string | null {
  const chain = splitChain(header)
  let address: string | undefined
  if ('count' in trusted) {
    address = chain[Math.max(0, chain.length - 1 - trusted.count)]
  } else {
    // The nearest hop that is not a trusted proxy; all of them trusted: the farthest.
    address = [...chain].reverse().find((entry) => !isTrustedProxy(entry, trusted.ranges)) ?? chain[0]
  }
  return address ? address.replace(/^::ffff:/, '') : null
}

/**
 * The network one client's limits count under: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber's or one host's whole network: anyone holding one has 2^64 addresses to rotate
 * through). An address that does not parse counts as itself.
 */
export function clientNetwork(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.process(address)
  } catch {
    return address
  }
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const prefix = parsed.toNormalizedString().split(':').slice(0, 4)
  return `${ipaddr.IPv6.parse(`${prefix.join(':')}::`).toString()}/64`
}
