import { customType } from 'drizzle-orm/pg-core'
import { Level, type MatchEvidence } from '../../contracts/device'
import { EVIDENCE_DICTIONARY, EVIDENCE_FACETS } from './packed-dictionaries'
import { pushVarint } from './packed-durations'
import { packJson, unpackJson } from './packed-json'

// events.evidence as the server writes it (issue 28): a match's evidence is always the same few
// numbers (its totals, and each facet's bits with its level), so it is written as numbers, not as
// JSON text: a marker byte, which totals follow, each number as a zigzag varint of thousandths of a
// bit, then the facets, each one byte (its place in EVIDENCE_FACETS and its level) and its bits.
// About 60 bytes where deflated JSON took about 140. Evidence that does not fit this exactly (a
// facet or key this server does not know, bits off the thousandths) is stored as packed JSON, which
// reads as before; so do the rows written before (JSON text, or JSON deflated: packed-json.ts).

/** The first byte of numbers-only evidence: neither a dictionary's version nor JSON text's first byte. */
const NUMBERS = 0xf0
/** Bits are stored to a thousandth. */
const SCALE = 1_000
const LEVELS = Level.options
const HAS_JOINT = 1
const HAS_RECENCY = 2
const TOP_KEYS = new Set(['bits', 'twinBits', 'facets', 'jointBits', 'contextBits', 'recencyBits'])
/** Facets fit one byte with their level: 64 of them at most. */
const MAX_FACETS = 64

/** `bits` in thousandths, when it is exactly that many (and small enough to be exact). */
function thousandths(bits: unknown): number | undefined {
  if (typeof bits !== 'number' || !Number.isFinite(bits)) return undefined
  const count = Math.round(bits * SCALE)
  return Math.abs(count) <= 2 ** 40 && count / SCALE === bits ? count : undefined
}

/** A count of thousandths, zigzagged (0, -1, 1, -2 … as 0, 1, 2, 3 …) and written as a varint. */
function pushNumber(bytes: number[], count: number) {
  pushVarint(bytes, count >= 0 ? count * 2 : -count * 2 - 1)
}

/** The evidence's numbers-only bytes, or undefined when it does not fit them exactly. */
function numbersOf(evidence: MatchEvidence): Buffer | undefined {
  if (Object.keys(evidence).some((key) => !TOP_KEYS.has(key))) return undefined
  const totals = [evidence.bits, evidence.twinBits, evidence.contextBits]
  let flags = 0
  if (evidence.jointBits !== undefined) {
    flags |= HAS_JOINT
    totals.push(evidence.jointBits)
  }
  if (evidence.recencyBits !== undefined) {
    flags |= HAS_RECENCY
    totals.push(evidence.recencyBits)
  }
  const bytes = [NUMBERS, flags]
  for (const total of totals) {
    const count = thousandths(total)
    if (count === undefined) return undefined
    pushNumber(bytes, count)
  }
  if (!Array.isArray(evidence.facets)) return undefined
  pushNumber(bytes, evidence.facets.length)
  for (const facet of evidence.facets) {
    if (typeof facet !== 'object' || facet === null || Object.keys(facet).length !== 3) return undefined
    const place = EVIDENCE_FACETS.indexOf(facet.facet)
    const level = LEVELS.indexOf(facet.level)
    const count = thousandths(facet.bits)
    if (place < 0 || place >= MAX_FACETS || level < 0 || level > 3 || count === undefined) return undefined
    bytes.push(place * 4 + level)
    pushNumber(bytes, count)
  }
  return Buffer.from(bytes)
}

/** Evidence as events.evidence stores it: numbers only where they say all of it, else packed JSON. */
export function packEvidence(evidence: MatchEvidence): Buffer {
  return numbersOf(evidence) ?? packJson(evidence, EVIDENCE_DICTIONARY)
}

/** The evidence events.evidence holds, however it was written. */
export function unpackEvidence(stored: Uint8Array): MatchEvidence {
  if (stored[0] !== NUMBERS) return unpackJson(stored, EVIDENCE_DICTIONARY) as MatchEvidence
  let at = 2
  const nextCount = () => {
    let code = 0
    let scale = 1
    for (;;) {
      const byte = stored[at++]
      if (byte === undefined) throw new Error('Stored evidence ends inside a number.')
      code += (byte & 127) * scale
      if (byte < 128) break
      scale *= 128
      // A written number takes at most 6 bytes (2^41 at most, zigzagged).
      if (scale >= 128 ** 6) throw new Error('Stored evidence holds a number longer than any written.')
    }
    return code % 2 === 0 ? code / 2 : -(code + 1) / 2
  }
  const next = () => nextCount() / SCALE
  const flags = stored[1] ?? 0
  const bits = next()
  const twinBits = next()
  const contextBits = next()
  const jointBits = flags & HAS_JOINT ? next() : undefined
  const recencyBits = flags & HAS_RECENCY ? next() : undefined
  const count = nextCount()
  const facets: MatchEvidence['facets'] = []
  for (let index = 0; index < count; index++) {
    const byte = stored[at++] ?? 0
    const facet = EVIDENCE_FACETS[byte >> 2]
    const level = LEVELS[byte & 3]
    if (facet === undefined || level === undefined)
      throw new Error(`Stored evidence names facet ${byte >> 2}, which this server does not have.`)
    facets.push({ facet, level, bits: next() })
  }
  if (at !== stored.length) throw new Error('Stored evidence has bytes after its last facet.')
  // In the order batch-write.ts writes them.
  return {
    bits,
    twinBits,
    facets,
    ...(jointBits !== undefined && { jointBits }),
    contextBits,
    ...(recencyBits !== undefined && { recencyBits }),
  }
}

/** events.evidence: a `bytea` column of evidence (packEvidence), read and written by the builder and selectRows. */
export function packedEvidence(name: string) {
  return customType<{ data: MatchEvidence; driverData: Uint8Array }>({
    dataType: () => 'bytea',
    toDriver: packEvidence,
    fromDriver: unpackEvidence,
  })(name)
}
