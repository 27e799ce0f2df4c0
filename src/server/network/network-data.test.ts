import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyNetwork } from './hosting-networks'
import {
  loadNetworkData,
  lookUpAddress,
  NETWORK_FILES,
  parseTorExitList,
  writtenCoordinate,
} from './network-data'

// The databases the packages ship, read as the server reads them.
const data = loadNetworkData({})
const scratch = mkdtempSync(path.join(tmpdir(), 'tessera-network-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('lookUpAddress over the shipped databases', () => {
  it('gives known addresses their country and autonomous system, IPv4 and IPv6', () => {
    const google = lookUpAddress('8.8.8.8', data)
    expect(google?.geolocation?.countryCode).toBe('US')
    expect(google?.autonomousSystem).toEqual({ asn: 15169, organization: 'Google LLC' })
    const hetzner = lookUpAddress('2a01:4f8::1', data)
    expect(hetzner?.version).toBe(6)
    expect(hetzner?.geolocation?.countryCode).toBe('DE')
    expect(hetzner?.autonomousSystem?.asn).toBe(24940)
    expect(lookUpAddress('2600:1f18::1', data)?.autonomousSystem?.asn).toBe(14618)
  })

  it('gives coordinates as the database wrote them, not as their 32-bit float reads', () => {
    expect(writtenCoordinate(Math.fround(51.5072))).toBe(51.5072)
    expect(writtenCoordinate(Math.fround(-0.1276))).toBe(-0.1276)
    expect(writtenCoordinate(Math.fround(112.983))).toBe(112.983)
    // A double that is no float is kept as it is.
    expect(writtenCoordinate(51.50721)).toBe(51.50721)
    const { latitude, longitude } = lookUpAddress('8.8.8.8', data)?.geolocation ?? {}
    for (const coordinate of [latitude, longitude]) {
      expect(typeof coordinate).toBe('number')
      expect(String(coordinate).replace(/^-?\d+\.?/, '').length).toBeLessThanOrEqual(6)
    }
  })

  it('reads an IPv4-mapped IPv6 address as the IPv4 one', () => {
    const mapped = lookUpAddress('::ffff:8.8.4.4', data)
    expect(mapped?.address).toBe('8.8.4.4')
    expect(mapped?.autonomousSystem?.asn).toBe(15169)
  })

  it('answers "unknown" for an address in no database, and nothing for one that does not parse', () => {
    for (const address of ['10.0.0.1', '127.0.0.1', '192.168.1.20', 'fd00::1']) {
      const info = lookUpAddress(address, data)
      expect(info?.geolocation).toBeNull()
      expect(info?.autonomousSystem).toBeNull()
    }
    for (const address of ['', 'not an address', '1.2.3', '999.1.1.1', '1.2.3.4/24', '::g'])
      expect(lookUpAddress(address, data)).toBeNull()
  })

  it('tells hosting networks by their AS number, and by the organisation’s name', () => {
    const aws = classifyNetwork(lookUpAddress('3.5.140.2', data)?.autonomousSystem ?? null)
    expect(aws).toMatchObject({ kind: 'hosting', name: 'Amazon AWS', by: 'list' })
    expect(classifyNetwork({ asn: 4_200_000_001, organization: 'Example Hosting GmbH' })).toMatchObject({
      kind: 'hosting',
      by: 'name',
    })
    expect(classifyNetwork({ asn: 4_200_000_002, organization: 'Free Unlimited VPN Ltd' })?.kind).toBe('vpn')
    // A residential carrier and Cloudflare's name (not the word "cloud") are not hosting.
    expect(classifyNetwork(lookUpAddress('85.214.132.117', data)?.autonomousSystem ?? null)).toBeNull()
    expect(classifyNetwork({ asn: 3320, organization: 'Deutsche Telekom AG' })).toBeNull()
    expect(classifyNetwork({ asn: 4_200_000_003, organization: 'Cloudflare-like CDN' })).toBeNull()
  })
})

describe('loading the data', () => {
  it('stops with the file’s name when a database is corrupt or missing', () => {
    const broken = path.join(scratch, 'broken')
    const packageDir = (name: string) => path.join(process.cwd(), 'node_modules', '@ip-location-db', name)
    mkdirSync(broken)
    copyFileSync(
      path.join(packageDir('dbip-city-mmdb'), NETWORK_FILES.cityV6),
      path.join(broken, NETWORK_FILES.cityV6),
    )
    copyFileSync(path.join(packageDir('asn'), NETWORK_FILES.asnV4), path.join(broken, NETWORK_FILES.asnV4))
    copyFileSync(path.join(packageDir('asn'), NETWORK_FILES.asnV6), path.join(broken, NETWORK_FILES.asnV6))
    writeFileSync(path.join(broken, NETWORK_FILES.cityV4), 'not a database')
    expect(() => loadNetworkData({ directory: broken })).toThrow(
      new RegExp(`${NETWORK_FILES.cityV4}.*could not be read`),
    )
    rmSync(path.join(broken, NETWORK_FILES.cityV4))
    expect(() => loadNetworkData({ directory: broken })).toThrow(/dbip-city-ipv4\.mmdb could not be read/)
    copyFileSync(
      path.join(packageDir('dbip-city-mmdb'), NETWORK_FILES.cityV4),
      path.join(broken, NETWORK_FILES.cityV4),
    )
    writeFileSync(
      path.join(broken, NETWORK_FILES.asnV4),
      '16777216,16777471,13335,Cloudflare\n5,6,1,Backwards\n',
    )
    expect(() => loadNetworkData({ directory: broken })).toThrow(
      /asn-ipv4-num\.csv: the ranges are not sorted/,
    )
    writeFileSync(path.join(broken, NETWORK_FILES.asnV4), '<html>Not found</html>\n')
    expect(() => loadNetworkData({ directory: broken })).toThrow(/asn-ipv4-num\.csv: the line at byte 0/)
  })

  it('reads a Tor exit list in either of the Tor Project’s forms', () => {
    const exits = parseTorExitList(
      '# bulk list\n185.220.101.1\n2001:db8::7\nExitNode 0011BD2485AD45D984EC4159C88FC066E5E3300E\nExitAddress 192.0.2.44 2026-11-25 10:00:00\nnot-an-address\n',
    )
    expect([...exits].sort()).toEqual(['185.220.101.1', '192.0.2.44', '2001:db8::7'])
    const list = path.join(scratch, 'exits.txt')
    writeFileSync(list, '185.220.101.1\n')
    const withTor = loadNetworkData({ torExitList: list })
    expect(lookUpAddress('185.220.101.1', withTor)?.torExit).toBe(true)
    expect(lookUpAddress('185.220.101.2', withTor)?.torExit).toBe(false)
  })
})
