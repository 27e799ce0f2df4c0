import { describe, expect, it } from 'vitest'
import type { AddressInfo } from '../network/network-data'
import { detectNetwork } from './detect-network'
import { ComponentReader } from './read-components'

/** An address the databases place in `countryCode`, on an ordinary carrier unless told otherwise. */
function address(
  countryCode: string,
  system = { asn: 3320, organization: 'Deutsche Telekom AG' },
): AddressInfo {
  return {
    address: '198.51.100.7',
    version: 4,
    geolocation: { countryCode, region: null, city: null, latitude: null, longitude: null },
    autonomousSystem: system,
    torExit: false,
  }
}

const browserIn = (timezone: string) => new ComponentReader({ timezone: { value: timezone, duration: 1 } })

describe('the vpn signal: the browser’s time zone against the address’s country', () => {
  it('flags a browser in Asia/Tokyo on a German address, with high confidence', () => {
    const { vpn } = detectNetwork(address('DE'), browserIn('Asia/Tokyo'), undefined)
    expect(vpn.result).toBe(true)
    expect(vpn.confidence).toBe('high')
    expect(vpn.details).toEqual({
      originTimezone: 'Asia/Tokyo',
      originCountry: 'DE',
      methods: { timezoneMismatch: true, publicVpn: false, relay: false },
    })
    expect(vpn.reasons[0]).toMatch(/Asia\/Tokyo is not one Germany .* uses: \d+ h from the nearest/)
  })

  it('does not flag a zone the country uses, nor one keeping the same time there', () => {
    for (const [zone, country] of [
      ['Europe/Berlin', 'DE'],
      ['America/Chicago', 'US'],
      ['America/Los_Angeles', 'US'],
      ['Asia/Kolkata', 'IN'],
      ['Europe/Paris', 'DE'],
    ] as const) {
      const { vpn } = detectNetwork(address(country), browserIn(zone), undefined)
      expect({ zone, country, result: vpn.result, confidence: vpn.confidence }).toEqual({
        zone,
        country,
        result: false,
        confidence: 'high',
      })
    }
  })

  it('gives a neighbouring zone less confidence than another continent', () => {
    // London keeps an hour behind Berlin all year: a mismatch, but a small one.
    const near = detectNetwork(address('DE'), browserIn('Europe/London'), undefined).vpn
    expect(near).toMatchObject({ result: true, confidence: 'medium' })
    const far = detectNetwork(address('US'), browserIn('Europe/Berlin'), undefined).vpn
    expect(far).toMatchObject({ result: true, confidence: 'high' })
  })

  it('flags a VPN service’s or a relay’s network whatever the zone', () => {
    const proton = detectNetwork(
      address('CH', { asn: 209103, organization: 'Proton AG' }),
      browserIn('Europe/Zurich'),
      undefined,
    )
    expect(proton.vpn).toMatchObject({ result: true, confidence: 'high' })
    expect(proton.vpn.details.methods).toEqual({ timezoneMismatch: false, publicVpn: true, relay: false })
    const relay = detectNetwork(
      address('US', { asn: 36183, organization: 'Akamai Technologies' }),
      browserIn('America/New_York'),
      undefined,
    )
    expect(relay.vpn).toMatchObject({ result: true, confidence: 'medium' })
    expect(relay.vpn.details.methods.relay).toBe(true)
  })

  it('takes UTC and the Etc/ zones for no place at all (Tor Browser and friends report them)', () => {
    for (const zone of ['UTC', 'Etc/UTC', 'Etc/GMT+3', 'GMT'])
      expect(detectNetwork(address('JP'), browserIn(zone), undefined).vpn.result).toBe(false)
  })

  it('says nothing without a time zone or a country', () => {
    expect(detectNetwork(address('DE'), new ComponentReader({}), undefined).vpn.result).toBe(false)
    expect(detectNetwork(null, browserIn('Asia/Tokyo'), undefined).vpn.result).toBe(false)
  })
})

describe('datacenter, proxy and tor', () => {
  it('flags a cloud network and names it', () => {
    const { datacenter, ipInfo } = detectNetwork(
      address('US', { asn: 16509, organization: 'Amazon.com, Inc.' }),
      browserIn('America/New_York'),
      undefined,
    )
    expect(datacenter).toMatchObject({ result: true, kind: 'Amazon AWS' })
    expect(datacenter.reasons[0]).toMatch(/Amazon AWS, a hosting network \(AS16509\)/)
    expect(ipInfo.result).toMatchObject({
      countryCode: 'US',
      countryName: 'United States',
      asn: 16509,
      asnType: 'hosting',
    })
  })

  it('does not flag a carrier, and gives the country’s zone when it has one', () => {
    const { datacenter, ipInfo } = detectNetwork(address('FR'), browserIn('Europe/Paris'), undefined)
    expect(datacenter.result).toBe(false)
    expect(ipInfo.result).toMatchObject({ countryName: 'France', timezone: 'Europe/Paris', asnType: 'isp' })
    expect(
      detectNetwork(address('US'), browserIn('America/Chicago'), undefined).ipInfo.result?.timezone,
    ).toBeNull()
  })

  it('flags forwarding headers no trusted proxy added, and a Via', () => {
    const evidence = (untrusted: number, via: boolean) => ({
      headers: {
        userAgent: null,
        acceptLanguage: null,
        clientHints: null,
        clientHintsMobile: null,
        clientHintsPlatform: null,
      },
      agentProof: 'valid' as const,
      offShape: [],
      forwarding: { untrusted, via },
    })
    const reader = browserIn('Europe/Berlin')
    expect(detectNetwork(address('DE'), reader, evidence(0, false)).proxy).toEqual({
      result: false,
      confidence: 'high',
      reasons: [],
    })
    expect(detectNetwork(address('DE'), reader, evidence(2, false)).proxy).toMatchObject({
      result: true,
      confidence: 'medium',
    })
    expect(detectNetwork(address('DE'), reader, evidence(0, true)).proxy).toMatchObject({
      result: true,
      confidence: 'high',
    })
    expect(detectNetwork(address('DE'), reader, undefined).proxy.result).toBe(false)
  })

  it('flags a Tor exit relay', () => {
    const tor = detectNetwork({ ...address('DE'), torExit: true }, browserIn('Europe/Berlin'), undefined).tor
    expect(tor).toEqual({
      result: true,
      reasons: ['The address is a Tor exit relay (the configured exit list).'],
    })
  })
})
