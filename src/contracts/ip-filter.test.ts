import { describe, expect, it } from 'vitest'
import { parseIpFilter } from './ip-filter'

describe('parseIpFilter', () => {
  it('reads an address, normalised as addresses are stored, and a range', () => {
    expect(parseIpFilter('192.0.2.6')).toEqual({ ip: '192.0.2.6' })
    expect(parseIpFilter('192.0.2.6/32')).toEqual({ ip: '192.0.2.6' })
    expect(parseIpFilter('192.0.2.0/24')).toEqual({ ipRange: '192.0.2.0/24' })
    expect(parseIpFilter('0.0.0.0/0')).toEqual({ ipRange: '0.0.0.0/0' })
    expect(parseIpFilter('2001:DB8::1')).toEqual({ ip: '2001:db8::1' })
    expect(parseIpFilter('2001:db8::/32')).toEqual({ ipRange: '2001:db8::/32' })
    // An IPv4-mapped address is its IPv4 form, its prefix counted on the last 32 bits.
    expect(parseIpFilter('::ffff:192.0.2.6')).toEqual({ ip: '192.0.2.6' })
    expect(parseIpFilter('::ffff:192.0.2.0/120')).toEqual({ ipRange: '192.0.2.0/24' })
  })

  it('refuses what is no address, and what the database could not read as a range', () => {
    for (const value of [
      'notanip',
      '999.1.1.1',
      '192.0.2.0/33',
      '192.0.2.6/24/1',
      '2001:db8::/064',
      '192.0.2.0/08',
      'fe80::1%eth0',
      'fe80::1%eth0/64',
      '::ffff:192.0.2.0/64',
      '',
    ])
      expect(parseIpFilter(value), value).toBeNull()
  })
})
