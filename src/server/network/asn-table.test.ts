import { describe, expect, it } from 'vitest'
import { findAutonomousSystem, loadAsnTable } from './asn-table'

const table = (text: string) => loadAsnTable(Buffer.from(text, 'latin1'), 'test.csv')
const find = (text: string, address: number | bigint) =>
  findAutonomousSystem(table(text), BigInt(address))?.asn ?? null

describe('findAutonomousSystem over the CSV text', () => {
  const ranges = '100,199,1,One\n200,299,2,"Two, Inc."\n400,499,4,Four\n'

  it('finds the range holding an address, its bounds included', () => {
    expect([100, 150, 199, 200, 299, 400, 499].map((address) => find(ranges, address))).toEqual([
      1, 1, 1, 2, 2, 4, 4,
    ])
  })

  it('finds nothing before the first range, in a gap, or after the last', () => {
    expect([0, 99, 300, 399, 500, 2 ** 32 - 1].map((address) => find(ranges, address))).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ])
  })

  it('reads a last line without a newline, CRLF line ends, and a quoted organisation', () => {
    expect(find('100,199,1,One\r\n200,299,2,Two', 250)).toBe(2)
    expect(find('100,199,1,One\r\n200,299,2,Two\r\n', 150)).toBe(1)
    expect(findAutonomousSystem(table(ranges), 250n)).toEqual({ asn: 2, organization: 'Two, Inc.' })
  })

  it('finds an address in a range that a shorter one after it overlaps', () => {
    const overlapping = '100,999,7,Wide\n200,299,8,Narrow\n'
    expect(find(overlapping, 250)).toBe(8)
    expect(find(overlapping, 500)).toBe(7)
  })

  it('compares IPv6 bounds beyond 2^53 exactly', () => {
    const base = 42540488161975842760550356425300246528n
    const v6 = `${base},${base + 99n},6939,Hurricane Electric\n${base + 200n},${base + 299n},112,DNS-OARC\n`
    expect(find(v6, base + 99n)).toBe(6939)
    expect(find(v6, base + 100n)).toBeNull()
    expect(find(v6, base + 200n)).toBe(112)
  })

  it('refuses an empty, foreign or unsorted file at load', () => {
    expect(() => table('')).toThrow(/empty/)
    expect(() => table('<!doctype html>\n')).toThrow(/not start,end,asn,organisation/)
    expect(() => table('200,299,2,Two\n100,199,1,One\n')).toThrow(/not sorted/)
  })
})
