import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { parseEnv } from '../env'
import {
  clientInChain,
  clientNetwork,
  FORWARDING_HEADER,
  forwardedFor,
  forwardingEvidence,
  rewriteForwardingHeaders,
} from './client-address'
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies'

function trusted(value: string): TrustedProxies {
  const parsed = parseTrustedProxies(value)
  if ('error' in parsed) throw new Error(parsed.error)
  return parsed
}

/** What Tessera takes as the client's address: the front's rewrite, then the read. */
function client(header: string | undefined, socket: string, value: string) {
  return clientInChain(forwardedFor(header, socket, trusted(value)), trusted(value))
}

describe('TESSERA_TRUSTED_PROXIES', () => {
  it('as a count: the entries that many proxies appended', () => {
    expect(client('6.6.6.6', '203.0.113.9', '0')).toBe('203.0.113.9')
    expect(client('6.6.6.6, 198.51.100.4', '10.0.0.2', '1')).toBe('198.51.100.4')
    expect(client(undefined, '198.51.100.4', '1')).toBe('198.51.100.4')
    expect(forwardedFor('6.6.6.6, 198.51.100.4', '10.0.0.2', trusted('1'))).toBe('198.51.100.4, 10.0.0.2')
  })

  it('as addresses: a client reaching Tessera directly cannot choose its address', () => {
    const proxies = '10.0.0.0/8, 127.0.0.2, ::1'
    // Directly, with a forged header: the socket is the client.
    expect(client('198.51.100.4', '203.0.113.9', proxies)).toBe('203.0.113.9')
    expect(forwardedFor('198.51.100.4', '203.0.113.9', trusted(proxies))).toBe('203.0.113.9')
    // Through a trusted proxy: the address it appended, not what the client wrote before it.
    expect(client('6.6.6.6, 198.51.100.4', '10.1.2.3', proxies)).toBe('198.51.100.4')
    expect(client('6.6.6.6, 127.0.0.1', '::ffff:127.0.0.2', proxies)).toBe('127.0.0.1')
    // Through two trusted proxies, one behind the other.
    expect(client('198.51.100.4, 10.9.9.9', '10.1.2.3', proxies)).toBe('198.51.100.4')
    // A trusted proxy that added nothing: itself.
    expect(client(undefined, '10.1.2.3', proxies)).toBe('10.1.2.3')
    // Garbage in the chain stops the walk there.
    expect(client('198.51.100.4, not-an-ip', '10.1.2.3', proxies)).toBe('not-an-ip')
    expect(client('1.2.3.4', '::1', proxies)).toBe('1.2.3.4')
  })

  it('is validated at start-up', () => {
    expect(parseEnv({}).TESSERA_TRUSTED_PROXIES).toEqual({ count: 0 })
    expect(parseEnv({ TESSERA_TRUSTED_PROXIES: '2' }).TESSERA_TRUSTED_PROXIES).toEqual({ count: 2 })
    expect('ranges' in parseEnv({ TESSERA_TRUSTED_PROXIES: '10.0.0.0/8,::1' }).TESSERA_TRUSTED_PROXIES).toBe(
      true,
    )
    expect(() => parseEnv({ TESSERA_TRUSTED_PROXIES: '11' })).toThrow(/at most 10/)
    expect(() => parseEnv({ TESSERA_TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/TESSERA_TRUSTED_PROXIES/)
    expect(() => parseEnv({ TESSERA_TRUSTED_PROXIES: 'proxy.local' })).toThrow(/neither a number/)
  })
})

describe('rewriteForwardingHeaders: the front believes forwarding headers only from trusted proxies', () => {
  const forwarding = {
    'x-forwarded-for': '6.6.6.6',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-port': '443',
    forwarded: 'for=6.6.6.6;proto=https',
  }
  const arriving = (socket: string) =>
    ({ headers: { ...forwarding }, socket: { remoteAddress: socket } }) as unknown as IncomingMessage

  it('drops what a client says about its own request when no proxy is trusted', () => {
    const request = arriving('203.0.113.9')
    rewriteForwardingHeaders(request, trusted('0'))
    expect(request.headers).toEqual({
      'x-forwarded-for': '203.0.113.9',
      // The dropped entry and the Forwarded header: a proxy Tessera does not trust (or a forgery).
      [FORWARDING_HEADER]: 'untrusted=2; via=0',
    })
  })

  it('notes what it dropped for the proxy signal, whatever a client wrote in its place', () => {
    const noted = (headers: Record<string, string>, socket: string, value: string) => {
      const request = {
        headers: { ...headers },
        socket: { remoteAddress: socket },
      } as unknown as IncomingMessage
      rewriteForwardingHeaders(request, trusted(value))
      return forwardingEvidence(new Headers(request.headers as Record<string, string>))
    }
    expect(noted({}, '203.0.113.9', '0')).toEqual({ untrusted: 0, via: false })
    expect(
      noted({ [FORWARDING_HEADER]: 'untrusted=0; via=0', via: '1.1 squid' }, '203.0.113.9', '0'),
    ).toEqual({
      untrusted: 0,
      via: true,
    })
    expect(noted({ 'x-forwarded-for': '6.6.6.6, 7.7.7.7' }, '203.0.113.9', '0')).toEqual({
      untrusted: 2,
      via: false,
    })
    // A trusted load balancer appended the client; nothing before it, and its own Via, count.
    expect(noted({ 'x-forwarded-for': '198.51.100.4', via: '1.1 lb' }, '10.0.0.2', '10.0.0.0/8')).toEqual({
      untrusted: 0,
      via: false,
    })
    // The client wrote an entry of its own before the one the trusted proxy appended.
    expect(noted({ 'x-forwarded-for': '6.6.6.6, 198.51.100.4' }, '10.0.0.2', '1')).toEqual({
      untrusted: 1,
      via: false,
    })
    expect(forwardingEvidence(new Headers({ [FORWARDING_HEADER]: 'untrusted=99999; via=1' }))).toBeUndefined()
  })

  it('with proxy addresses: keeps them from a trusted proxy, drops them from anyone else', () => {
    const direct = arriving('203.0.113.9')
    rewriteForwardingHeaders(direct, trusted('10.0.0.0/8'))
    expect(direct.headers['x-forwarded-proto']).toBeUndefined()
    expect(direct.headers['x-forwarded-host']).toBeUndefined()
    const proxied = arriving('10.0.0.2')
    rewriteForwardingHeaders(proxied, trusted('10.0.0.0/8'))
    expect(proxied.headers['x-forwarded-proto']).toBe('https')
    expect(proxied.headers['x-forwarded-host']).toBe('evil.example')
    expect(proxied.headers['x-forwarded-for']).toBe('6.6.6.6, 10.0.0.2')
  })

  it('with a count of proxies: keeps them (every connection comes through the proxies)', () => {
    const request = arriving('10.0.0.2')
    rewriteForwardingHeaders(request, trusted('1'))
    expect(request.headers['x-forwarded-proto']).toBe('https')
  })
})

describe('clientNetwork: what one client’s limits count under', () => {
  it('is an IPv4 address itself, and an IPv6 address’s /64', () => {
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9')
    expect(clientNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9')
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(clientNetwork('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(clientNetwork('2001:db8:1:2::1'))
    expect(clientNetwork('not an address')).toBe('not an address')
  })
})
