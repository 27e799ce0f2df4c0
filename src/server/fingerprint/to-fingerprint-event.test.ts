import type { Event } from '@fingerprint/node-sdk'
import { describe, expect, it } from 'vitest'
import { FingerprintEvent } from '@/contracts/fingerprint-v4'
import type { StoredEvent } from '@/contracts/server-api'
import { toFingerprintEvent } from './to-fingerprint-event'

const stored: StoredEvent = {
  requestId: 'mabc123.Xy_9-AbCdE',
  visitorId: 'Ibk1527CUFmcnjLwIs4A',
  visitorFound: true,
  createdAt: '2026-03-01T12:00:00.250Z',
  confidence: { score: 0.97 },
  ip: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/140.0.0.0',
  url: 'https://shop.example/signup',
  siteKey: 'pk_site',
  tag: { plan: 'pro', nested: { list: [1, 2] } },
  linkedId: 'account-42',
  signals: {
    bot: { result: 'bad', kind: 'Selenium/WebDriver', reasons: ['navigator.webdriver is true.'] } as {
      result: 'bad'
      reasons: string[]
    },
    tampering: { result: true, reasons: ['Replaced native functions.'] },
    privacyBrowser: { result: false, reasons: [] },
    privateMode: { result: true, reasons: ['Small storage quota.'] },
    virtualMachine: { result: false, reasons: [] },
    velocity: {
      result: {
        events: { '5m': 3, '1h': 4, '24h': 9 },
        distinctIps: { '5m': 1, '1h': 2, '24h': 2 },
        distinctLinkedIds: { '24h': 1 },
      },
      reasons: [],
    },
    ipInfo: {
      result: {
        address: '203.0.113.7',
        version: 4,
        countryCode: 'DE',
        countryName: 'Germany',
        region: 'Bavaria',
        city: 'Nuremberg',
        latitude: 49.45,
        longitude: 11.07,
        timezone: null,
        asn: 24940,
        asnOrganization: 'Hetzner Online GmbH',
        asnType: 'hosting',
      },
      reasons: [],
    },
    datacenter: { result: true, kind: 'Hetzner', reasons: ['The address belongs to Hetzner.'] },
    vpn: {
      result: true,
      confidence: 'high',
      details: {
        originTimezone: 'Asia/Tokyo',
        originCountry: 'DE',
        methods: { timezoneMismatch: true, publicVpn: false, relay: false },
      },
      reasons: ['The browser’s time zone Asia/Tokyo is not one Germany uses.'],
    },
    proxy: { result: false, confidence: 'high', reasons: [] },
    tor: { result: false, reasons: [] },
  },
  suspectScore: 19,
}

describe('toFingerprintEvent', () => {
  it("maps every field Tessera stores to v4's names", () => {
    const event = toFingerprintEvent(stored, {
      firstSeenAt: '2026-02-01T00:00:00.000Z',
      lastSeenAt: '2026-02-28T08:30:00.000Z',
      suspect: true,
    })
    expect(event).toEqual({
      event_id: 'mabc123.Xy_9-AbCdE',
      timestamp: Date.parse('2026-03-01T12:00:00.250Z'),
      linked_id: 'account-42',
      suspect: true,
      identification: {
        visitor_id: 'Ibk1527CUFmcnjLwIs4A',
        confidence: { score: 0.97 },
        visitor_found: true,
        first_seen_at: Date.parse('2026-02-01T00:00:00.000Z'),
        last_seen_at: Date.parse('2026-02-28T08:30:00.000Z'),
      },
      tags: { plan: 'pro', nested: { list: [1, 2] } },
      url: 'https://shop.example/signup',
      ip_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/140.0.0.0',
      bot: 'bad',
      bot_type: 'selenium_webdriver',
      incognito: true,
      privacy_settings: false,
      tampering: true,
      virtual_machine: false,
      ip_info: {
        v4: {
          address: '203.0.113.7',
          geolocation: {
            latitude: 49.45,
            longitude: 11.07,
            city_name: 'Nuremberg',
            country_code: 'DE',
            country_name: 'Germany',
          },
          asn: '24940',
          asn_name: 'Hetzner Online GmbH',
          asn_type: 'hosting',
          datacenter_result: true,
          datacenter_name: 'Hetzner',
        },
      },
      vpn: true,
      vpn_confidence: 'high',
      vpn_origin_timezone: 'Asia/Tokyo',
      vpn_origin_country: 'DE',
      vpn_methods: { timezone_mismatch: true, public_vpn: false, relay: false },
      proxy: false,
      proxy_confidence: 'high',
      ip_blocklist: { tor_node: false },
      velocity: {
        distinct_ip: { '5_minutes': 1, '1_hour': 2, '24_hours': 2 },
        events: { '5_minutes': 3, '1_hour': 4, '24_hours': 9 },
      },
      suspect_score: 19,
    })
    // Exactly the contract's fields: parsing (which drops unknown keys) changes nothing.
    expect(FingerprintEvent.parse(event)).toEqual(event)
  })

  it('leaves out what Tessera does not know, rather than inventing it', () => {
    const event = toFingerprintEvent(
      {
        ...stored,
        visitorFound: false,
        ip: null,
        userAgent: null,
        url: null,
        tag: null,
        linkedId: null,
        // An event stored before most signals existed.
        signals: { bot: { result: 'notDetected', reasons: [] } },
      },
      { firstSeenAt: '2026-03-01T12:00:00.250Z', lastSeenAt: null, suspect: null },
    )
    expect(event).toEqual({
      event_id: stored.requestId,
      timestamp: Date.parse(stored.createdAt),
      identification: {
        visitor_id: stored.visitorId,
        confidence: { score: 0.97 },
        visitor_found: false,
        first_seen_at: Date.parse('2026-03-01T12:00:00.250Z'),
      },
      bot: 'not_detected',
      suspect_score: 19,
    })
    // No bot_type without a bot, and nothing for velocity, VPN, geolocation, SDK, …
    expect(Object.keys(event)).not.toContain('bot_type')
  })

  it("produces what the official SDK's Event type describes", () => {
    // A compile-time check as much as a run-time one: every field is v4's, with v4's type.
    const event: Event = toFingerprintEvent(stored)
    const good = toFingerprintEvent({
      ...stored,
      signals: { bot: { result: 'good', kind: 'Googlebot', reasons: [] } },
    })
    expect(event.identification?.visitor_id).toBe(stored.visitorId)
    expect(good).toMatchObject({ bot: 'good', bot_type: 'googlebot' })
  })
})
