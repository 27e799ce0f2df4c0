import { describe, expect, it } from 'vitest'
import { matchingNetwork, normaliseNetwork } from './network-range'

describe('normaliseNetwork', () => {
  it('writes addresses and ranges one canonical way', () => {
    expect(normaliseNetwork(' 203.0.113.7 ')).toBe('203.0.113.7')
    expect(normaliseNetwork('203.0.113.7/24')).toBe('203.0.113.0/24')
    expect(normaliseNetwork('10.1.2.3/8')).toBe('10.0.0.0/8')
    expect(normaliseNetwork('203.0.113.7/32')).toBe('203.0.113.7')
    expect(normaliseNetwork('2001:DB8:0:0::1/32')).toBe('2001:db8::/32')
    expect(normaliseNetwork('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(normaliseNetwork('0.0.0.0/0')).toBe('0.0.0.0/0')
  })

  it('refuses what is not an address or a range', () => {
    for (const text of [
      '',
      '1.2.3',
      '1.2.3.4/33',
      '2001:db8::/129',
      '1.2.3.4/24/1',
      '1.2.3.4/x',
      'example.com',
      '1.2.3.4/-1',
      '::ffff:192.0.2.0/120',
      '::ffff:192.0.2.0/24',
    ])
      expect(normaliseNetwork(text)).toBeNull()
  })
})

describe('matchingNetwork', () => {
  const list = ['203.0.113.0/24', '198.51.100.7', '2001:db8::/32']
  it('finds the entry holding an address, IPv4 and IPv6', () => {
    expect(matchingNetwork('203.0.113.250', list)).toBe('203.0.113.0/24')
    expect(matchingNetwork('198.51.100.7', list)).toBe('198.51.100.7')
    expect(matchingNetwork('2001:db8:1::5', list)).toBe('2001:db8::/32')
    expect(matchingNetwork('::ffff:203.0.113.9', list)).toBe('203.0.113.0/24')
  })

  it('finds nothing for other addresses or for text that is not one', () => {
    expect(matchingNetwork('203.0.114.1', list)).toBeNull()
    expect(matchingNetwork('198.51.100.8', list)).toBeNull()
    expect(matchingNetwork('2001:db9::1', list)).toBeNull()
    expect(matchingNetwork('not an address', list)).toBeNull()
    expect(matchingNetwork('203.0.113.1', [])).toBeNull()
  })

  it('answers alike from a list it has read before, and reads a new list anew', () => {
    const list = ['203.0.113.0/24', '2001:db8::/32']
    expect(matchingNetwork('203.0.113.9', list)).toBe('203.0.113.0/24')
    expect(matchingNetwork('2001:db8::5', list)).toBe('2001:db8::/32')
    expect(matchingNetwork('198.51.100.1', list)).toBeNull()
    // The site changed its list: the same length, other ranges.
    const changed = ['198.51.100.0/24', '2001:db9::/32']
    expect(matchingNetwork('203.0.113.9', changed)).toBeNull()
    expect(matchingNetwork('198.51.100.1', changed)).toBe('198.51.100.0/24')
    expect(matchingNetwork('203.0.113.9', list)).toBe('203.0.113.0/24')
  })
})
