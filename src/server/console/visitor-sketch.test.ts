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

  it('refuses bytes that are not a sketch', () => {
    expect(() => VisitorSketch.decode(Buffer.from([0, 1, 2]))).toThrow()
    expect(() => VisitorSketch.decode(Buffer.from([7]))).toThrow()
  })
})
