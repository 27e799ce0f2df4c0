import { describe, expect, it } from 'vitest'
import {
  formatBits,
  formatBucket,
  formatCount,
  formatDuration,
  formatNetwork,
  formatOneIn,
  formatPercent,
  formatTime,
} from './format'

const en = { locale: 'en-US', timeZone: 'UTC' }
const de = { locale: 'de-DE', timeZone: 'UTC' }

describe('dates', () => {
  it('writes a moment with its date and time', () => {
    expect(formatTime('2026-11-24T03:25:00Z', en)).toBe('Nov 24, 2026, 3:25 AM UTC')
    expect(formatTime('2026-11-24T03:25:00Z', de)).toBe('24. Nov. 2026, 03:25 UTC')
  })

  it('labels a chart bucket by its hour or its day', () => {
    expect(formatBucket('2026-11-24T15:00:00Z', 'hour', en)).toBe('03:00 PM')
    expect(formatBucket('2026-11-24T15:00:00Z', 'day', en)).toBe('Nov 24')
  })

  it('reads the time zone it is given', () => {
    expect(formatTime('2026-11-24T03:25:00Z', { locale: 'en-US', timeZone: 'Europe/Helsinki' })).toBe(
      'Nov 24, 2026, 5:25 AM GMT+2',
    )
  })
})

describe('numbers', () => {
  it('writes a share as a whole percentage', () => {
    expect(formatPercent(0.874, en)).toBe('87%')
    expect(formatPercent(0.875, en)).toBe('88%')
    expect(formatPercent(0, en)).toBe('0%')
    expect(formatPercent(1, en)).toBe('100%')
    // Other locales place the sign their own way (a no-break space before it in German).
    expect(formatPercent(0.874, de)).toBe('87\u00a0%')
  })

  it('groups the digits of a count', () => {
    expect(formatCount(12345, en)).toBe('12,345')
    expect(formatCount(12345, de)).toBe('12.345')
    expect(formatCount(7, en)).toBe('7')
    expect(formatCount(2.6, en)).toBe('3')
  })

  it('writes bits to one decimal, signed when asked', () => {
    expect(formatBits(3.24, en)).toBe('3.2 bits')
    expect(formatBits(12, en)).toBe('12.0 bits')
    expect(formatBits(3.24, { ...en, signed: true })).toBe('+3.2 bits')
    expect(formatBits(-1.96, { ...en, signed: true })).toBe('-2.0 bits')
    // Evidence that rounds to nothing is neither for nor against.
    expect(formatBits(-0.04, { ...en, signed: true })).toBe('0.0 bits')
    expect(formatBits(3.24, de)).toBe('3,2 bits')
  })

  it('writes how rare a value is as "1 in N"', () => {
    expect(formatOneIn(1, 5, en)).toBe('1 in 5')
    expect(formatOneIn(3, 10, en)).toBe('1 in 3')
    expect(formatOneIn(5, 5, en)).toBe('1 in 1')
    expect(formatOneIn(1, 25000, en)).toBe('1 in 25,000')
    // A count that has not caught up yet never divides by zero.
    expect(formatOneIn(0, 4, en)).toBe('1 in 4')
  })

  it('writes a duration in whole milliseconds', () => {
    expect(formatDuration(12.4, en)).toBe('12 ms')
    expect(formatDuration(1234.5, en)).toBe('1,235 ms')
    expect(formatDuration(0, en)).toBe('0 ms')
  })
})

describe('formatNetwork', () => {
  it('says where an address is and whose network it is, with what the data has', () => {
    const info = {
      city: 'Nuremberg',
      countryCode: 'DE',
      countryName: 'Germany',
      asn: 24940,
      asnOrganization: 'Hetzner Online GmbH',
    }
    expect(formatNetwork({ result: info })).toBe('Nuremberg, Germany · Hetzner Online GmbH (AS24940)')
    expect(formatNetwork({ result: { ...info, city: null, countryName: null } })).toBe(
      'DE · Hetzner Online GmbH (AS24940)',
    )
    expect(formatNetwork({ result: { countryCode: null, asn: null, asnOrganization: null } })).toBeNull()
    expect(formatNetwork({ result: null })).toBeNull()
    expect(formatNetwork(undefined)).toBeNull()
  })
})
