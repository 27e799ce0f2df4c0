import { describe, expect, it } from 'vitest'
import { addressKey } from './address-key'

describe('addressKey', () => {
  it('keys an IPv6 address by its /64, in any spelling', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'))
  })

  it('keys an IPv4 address by itself, also when IPv4-mapped', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9')
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
  })

  it('keeps what is not an address as it is', () => {
    expect(addressKey(null)).toBe('unknown')
    expect(addressKey('not an address')).toBe('not an address')
  })
})
