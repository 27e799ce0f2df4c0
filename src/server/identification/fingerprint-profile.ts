import { hash } from 'node:crypto'
import { hash as fastHash } from '@/agent/hash'
import type { SourceName } from '@/agent/sources'
import type { ComponentResult, Json } from '@/contracts/identify'
import { isIdentifying, type PartsKind, partsKinds } from './component-model'

/** Component name → short digest of its whole value. */
export type Digests = Record<string, string>

/**
 * What matching keeps of a fingerprint: a digest per component, and for structured values the
 * digests of their parts (set elements, record fields), concatenated at a fixed width so a
 * profile stays small. No raw value is kept.
 */
export interface FingerprintProfile {
  digests: Digests
  parts: Record<string, string>
}

/** Width of one part digest: plenty to compare two values' parts. */
export const PART_WIDTH = 6

/** JSON with object keys sorted, so equal values always digest equally. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort()
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export function digestValue(value: Json): string {
  return hash('sha256', canonicalJson(value), 'base64url').slice(0, 16)
}

/**
 * A part's digest: the agent's fast 53-bit hash (cyrb53), its last six base-36 digits (31 bits).
 * Parts are only compared with the parts of one other value, and a request has a hundred of
 * them: SHA-256 cost more than the rest of matching.
 */
export function digestPart(text: string): string {
  return fastHash(text).padStart(PART_WIDTH, '0').slice(-PART_WIDTH)
}

/**
 * Privacy browsers add noise to canvas/audio; the agent renders twice and marks such values.
 * A randomised value says nothing stable about the device, so it is left out of matching.
 */
export function isRandomised(value: Json): boolean {
  if (value === 'randomized' || value === 'randomised') return true
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (value.randomized === true || value.stable === false)
  )
}

/** The texts a value's parts are made of, by the component's kind or else by its JSON shape. */
export function partTexts(value: Json, kind: PartsKind | undefined): string[] {
  if (kind === 'userAgent') {
    // Without version numbers a browser update keeps the same form.
    return [(typeof value === 'string' ? value : canonicalJson(value)).replace(/\d+(?:[._]\d+)*/g, '#')]
  }
  if (kind === 'whole') return []
  if (kind === 'positions' && typeof value === 'string') return [...value].map((char, at) => `${at}=${char}`)
  if (kind === 'preferences' && Array.isArray(value) && value.length > 0) {
    const entries = value.map((entry) => canonicalJson(entry))
    return [`first=${entries[0]}`, ...entries]
  }
  if (Array.isArray(value)) {
    return kind === 'record'
      ? value.map((entry, at) => `${at}=${canonicalJson(entry)}`)
      : value.map((entry) => canonicalJson(entry))
  }
  if (value !== null && typeof value === 'object') {
    return Object.keys(value).map((key) => `${key}=${canonicalJson(value[key] ?? null)}`)
  }
  return []
}

/** At most this many parts per component: bounds a profile's size whatever a browser sends. */
export const MAX_PARTS = 128

/** The parts of one value, as sorted fixed-width digests; empty when it has no structure. */
export function partsOf(name: string, value: Json): string {
  const texts = partTexts(value, partsKinds[name as SourceName])
  if (texts.length === 0) return ''
  return [...new Set(texts.map(digestPart))].sort().slice(0, MAX_PARTS).join('')
}

/** The profile of the components that can identify a device: no errors, no randomised or momentary values. */
export function profileComponents(components: Record<string, ComponentResult>): FingerprintProfile {
  const profile: FingerprintProfile = { digests: {}, parts: {} }
  for (const [name, result] of Object.entries(components)) {
    if (!('value' in result) || isRandomised(result.value) || !isIdentifying(name)) continue
    profile.digests[name] = digestValue(result.value)
    const parts = partsOf(name, result.value)
    if (parts) profile.parts[name] = parts
  }
  return profile
}

/** Share of parts two values have in common (Jaccard), in [0, 1]. */
export function partsOverlap(left: string, right: string): number {
  return compareParts(left, right).overlap
}

/**
 * How two values' parts compare: their overlap (Jaccard, in [0, 1]), whether each side holds a
 * part the other lacks (for a set: whether members were gained, lost, or both), and how many parts
 * each side holds and both share.
 */
export function compareParts(
  left: string,
  right: string,
): { overlap: number; onlyLeft: boolean; onlyRight: boolean; left: number; right: number; shared: number } {
  const mine = new Set<string>()
  for (let at = 0; at < left.length; at += PART_WIDTH) mine.add(left.slice(at, at + PART_WIDTH))
  let shared = 0
  let theirs = 0
  for (let at = 0; at < right.length; at += PART_WIDTH) {
    theirs++
    if (mine.has(right.slice(at, at + PART_WIDTH))) shared++
  }
  const union = mine.size + theirs - shared
  return {
    overlap: union === 0 ? 0 : shared / union,
    onlyLeft: mine.size > shared,
    onlyRight: theirs > shared,
    left: mine.size,
    right: theirs,
    shared,
  }
}
