import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { VisitorSketch } from './visitor-sketch'

/** As the database's tessera_visitor_hash: the first 8 bytes of md5 of the visitor ID. */
const hashOf = (id: string) => createHash('md5').update(id).digest('hex').slice(0, 16)

function sketchOf(ids: string[]): VisitorSketch {
  const sketch = new VisitorSketch()
  for (const id of ids) sketch.addHash(hashOf(id))
  return sketch
}
const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, at) => `visitor-${from + at}`)

describe('VisitorSketch', () => {
  it('counts exactly while small, repeats included', () => {
    expect(sketchOf([...ids(0, 300), ...ids(0, 300)]).estimate()).toBe(300)
    expect(new VisitorSketch().estimate()).toBe(0)
  })

  it('estimates large counts within a few per cent, merged in any order', () => {
    for (const count of [600, 5_000, 20_000, 200_000]) {
      const whole = sketchOf(ids(0, count))
      expect(Math.abs(whole.estimate() - count) / count).toBeLessThan(0.05)
      // Two overlapping halves, merged either way, give what one sketch of all gives.
      const left = sketchOf(ids(0, Math.ceil(count * 0.6)))
      const right = sketchOf(ids(Math.floor(count * 0.4), count))
      const merged = VisitorSketch.decode(left.encode()).merge(right)
      const other = VisitorSketch.decode(right.encode()).merge(left)
      expect(merged.estimate()).toBe(whole.estimate())
      expect(other.encode()).toEqual(merged.encode())
      // Stored bytes merged as they are, into a set or into registers, give the same.
      expect(new VisitorSketch().mergeEncoded(left.encode()).mergeEncoded(right.encode()).encode()).toEqual(
        merged.encode(),
      )
      expect(sketchOf(ids(0, 1_000)).mergeEncoded(right.encode()).encode()).toEqual(
        sketchOf(ids(0, 1_000)).merge(right).encode(),
      )
    }
  })

  it('survives its own encoding, sparse and dense', () => {
    for (const sketch of [sketchOf(ids(0, 10)), sketchOf(ids(0, 10_000))]) {
      const again = VisitorSketch.decode(sketch.encode())
      expect(again.encode()).toEqual(sketch.encode())
      expect(again.estimate()).toBe(sketch.estimate())
    }
    expect(sketchOf(ids(0, 10)).encode()).toHaveLength(1 + 10 * 8)
    expect(sketchOf(ids(0, 10_000)).encode()).toHaveLength(1 + 4096)
  })

  it('sets each register to the rank of the first 1 after its 12 index bits, as HyperLogLog defines it', () => {
    // Stored dense sketches must read the same whatever the code that raised them: the definition
    // in plain arithmetic, over hashes with long runs of zeros (ranks up to 53) and random ones.
    const reference = new Uint8Array(4096)
    const hashes = [
      ...ids(0, 3_000).map(hashOf),
      '0000000000000000',
      'fff0000000000000',
      'abc0000000000001',
      'abc0000080000000',
      '12300001ffffffff',
      '4560000000000010',
    ]
    const sketch = new VisitorSketch()
    for (const hash of hashes) {
      sketch.addHash(hash)
      const bits = BigInt(`0x${hash}`).toString(2).padStart(64, '0')
      const index = Number.parseInt(bits.slice(0, 12), 2)
      const first = bits.slice(12).indexOf('1')
      const rank = first === -1 ? 53 : first + 1
      reference[index] = Math.max(reference[index] ?? 0, rank)
    }
    expect([...sketch.encode()]).toEqual([1, ...reference])
  })

  it('refuses bytes that are not a sketch', () => {
    expect(() => VisitorSketch.decode(Buffer.from([0, 1, 2]))).toThrow()
    expect(() => VisitorSketch.decode(Buffer.from([7]))).toThrow()
    expect(() => new VisitorSketch().addHash('not-a-hash-at-all')).toThrow()
  })
})
