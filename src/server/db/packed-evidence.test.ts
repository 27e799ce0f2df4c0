import fc from 'fast-check'
import { expect, it } from 'vitest'
import { Level, type MatchEvidence } from '@/contracts/device'
import { EVIDENCE_DICTIONARY, EVIDENCE_FACETS } from './packed-dictionaries'
import { packEvidence, unpackEvidence } from './packed-evidence'
import { packJson } from './packed-json'

/** Bits as the server stores them: thousandths (batch-write.ts), up to a total's size. */
const bits = fc.integer({ min: -200_000, max: 200_000 }).map((count) => count / 1_000)
const evidence: fc.Arbitrary<MatchEvidence> = fc.record(
  {
    bits,
    twinBits: bits,
    facets: fc.array(
      fc.record({
        facet: fc.constantFrom(...EVIDENCE_FACETS),
        level: fc.constantFrom(...Level.options),
        bits,
      }),
      { maxLength: 20 },
    ),
    jointBits: bits,
    contextBits: bits,
    recencyBits: bits,
  },
  { requiredKeys: ['bits', 'twinBits', 'facets', 'contextBits'] },
)

it('reads back every evidence it writes as numbers, and a typical one takes about 60 bytes', () => {
  fc.assert(
    fc.property(evidence, (value) => {
      const packed = packEvidence(value)
      expect(packed[0]).toBe(0xf0)
      expect(unpackEvidence(packed)).toEqual(value)
    }),
    { numRuns: 500 },
  )
  const typical: MatchEvidence = {
    bits: 38.214,
    twinBits: 3.589,
    facets: EVIDENCE_FACETS.map((facet, index) => ({
      facet,
      level: index % 5 === 0 ? 'close' : 'exact',
      bits: Math.round((((index * 2.7) % 7) - 1) * 1_000) / 1_000,
    })),
    jointBits: 4.571,
    contextBits: 0.076,
    recencyBits: -1.159,
  }
  const packed = packEvidence(typical)
  expect(unpackEvidence(packed)).toEqual(typical)
  // Deflated against its dictionary, the same evidence takes nearly twice the bytes.
  expect(packed.length).toBeLessThan(70)
  expect(packJson(typical, EVIDENCE_DICTIONARY).length).toBeGreaterThan(packed.length * 1.8)
  // As PGlite hands bytes over: a view into a larger buffer.
  expect(unpackEvidence(new Uint8Array(Buffer.concat([Buffer.from('xx'), packed])).subarray(2))).toEqual(
    typical,
  )
})

it('stores what numbers cannot say exactly as packed JSON, and reads it back whole', () => {
  const base: MatchEvidence = {
    bits: 1,
    twinBits: 0,
    contextBits: 0,
    facets: [{ facet: 'time', level: 'exact', bits: 2 }],
  }
  const unlike: unknown[] = [
    { ...base, bits: 0.1 + 0.2 },
    { ...base, facets: [{ facet: 'aNewFacet', level: 'exact', bits: 1 }] },
    { ...base, facets: [{ facet: 'time', level: 'exact', bits: 1, note: 'more' }] },
    { ...base, rarity: 3 },
    { ...base, bits: 2 ** 45 },
    { ...base, facets: [null] },
  ]
  for (const value of unlike) {
    const packed = packEvidence(value as MatchEvidence)
    expect(packed[0]).toBe(EVIDENCE_DICTIONARY.length)
    expect(unpackEvidence(packed)).toEqual(value)
  }
})

it('reads the evidence stored before: JSON text, and JSON deflated against the dictionary', () => {
  const stored = {
    bits: 12.3456,
    twinBits: -0.1402,
    facets: [{ facet: 'locale', level: 'different', bits: -7.6 }],
    contextBits: 0,
  }
  expect(unpackEvidence(Buffer.from(JSON.stringify(stored)))).toEqual(stored)
  expect(unpackEvidence(packJson(stored, EVIDENCE_DICTIONARY))).toEqual(stored)
})

it('refuses cut-short bytes and a facet it does not know, rather than read something else', () => {
  const packed = packEvidence({
    bits: 300.5,
    twinBits: 0,
    contextBits: 0,
    facets: [{ facet: 'audio', level: 'close', bits: 9.999 }],
  })
  expect(() => unpackEvidence(packed.subarray(0, packed.length - 1))).toThrow(/ends inside a number/)
  expect(() => unpackEvidence(Buffer.concat([packed, Buffer.of(0)]))).toThrow(/bytes after its last facet/)
  // Continuation bytes past any written number's length.
  const endless = Buffer.concat([Buffer.of(0xf0, 0), Buffer.alloc(12, 0xff), Buffer.of(1)])
  expect(() => unpackEvidence(endless)).toThrow(/longer than any written/)
  const unknown = Buffer.from(packed)
  // The facet's byte, before its bits (9 999 thousandths: three bytes): place 63, which the list lacks.
  unknown[packed.length - 4] = 63 * 4
  expect(() => unpackEvidence(unknown)).toThrow(/facet 63/)
})
