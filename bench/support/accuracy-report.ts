// The figures of bench:accuracy: re-identification, false merges counted two ways, Tessera's
// confidence calibration and launch stability, from the recorded visits.
import type { Visit } from './accuracy-browser'

export const libraries = ['tessera', 'fingerprintjs', 'thumbmark'] as const
export type Library = (typeof libraries)[number]

export interface Revisit {
  profile: string
  scenario: string
  visit: Visit
}

export function idOf(visit: Visit | undefined, library: Library): string | undefined {
  if (!visit) return undefined
  return library === 'tessera' ? visit.visitorId : visit[library]
}

const percent = (part: number, whole: number) => (whole ? (100 * part) / whole : 0)

export interface Accuracy {
  reid: number
  /** Pairs of distinct profiles that ever shared an ID, over all pairs (%). */
  pairMerges: number
  mergedPairs: [string, string][]
  /** Revisits that got another profile's first-visit ID, over all revisits (%). */
  revisitMerges: number
  mergedRevisits: Revisit[]
  /** The headline: the larger of the two. */
  fm: number
}

export function accuracyOf(
  firsts: Map<string, Visit>,
  revisits: readonly Revisit[],
  library: Library,
): Accuracy {
  const same = revisits.filter(
    (entry) => idOf(entry.visit, library) === idOf(firsts.get(entry.profile), library),
  )
  const idsOf = new Map<string, Set<string>>()
  const add = (profile: string, id: string | undefined) => {
    if (id === undefined) return
    const ids = idsOf.get(profile) ?? new Set<string>()
    ids.add(id)
    idsOf.set(profile, ids)
  }
  for (const [profile, first] of firsts) add(profile, idOf(first, library))
  for (const entry of revisits) add(entry.profile, idOf(entry.visit, library))
  // Profiles by ID: a pair merged when one ID belongs to both.
  const profilesOf = new Map<string, Set<string>>()
  for (const [profile, ids] of idsOf)
    for (const id of ids) profilesOf.set(id, (profilesOf.get(id) ?? new Set()).add(profile))
  const merged = new Set<string>()
  const mergedPairs: [string, string][] = []
  for (const owners of profilesOf.values()) {
    const list = [...owners].sort()
    for (let a = 0; a < list.length; a++)
      for (let b = a + 1; b < list.length; b++) {
        const left = list[a] ?? ''
        const right = list[b] ?? ''
        if (merged.has(`${left} ${right}`)) continue
        merged.add(`${left} ${right}`)
        mergedPairs.push([left, right])
      }
  }
  // Twins merged on their first visits share one first-visit ID: an ID may have several owners.
  const firstOwners = new Map<string, Set<string>>()
  for (const [profile, first] of firsts) {
    const id = idOf(first, library)
    if (id !== undefined) firstOwners.set(id, (firstOwners.get(id) ?? new Set()).add(profile))
  }
  const mergedRevisits = revisits.filter((entry) =>
    [...(firstOwners.get(idOf(entry.visit, library) ?? '') ?? [])].some((owner) => owner !== entry.profile),
  )
  const profiles = firsts.size
  const pairMerges = percent(mergedPairs.length, (profiles * (profiles - 1)) / 2)
  const revisitMerges = percent(mergedRevisits.length, revisits.length)
  return {
    reid: percent(same.length, revisits.length),
    pairMerges,
    mergedPairs,
    revisitMerges,
    mergedRevisits,
    fm: Math.max(pairMerges, revisitMerges),
  }
}

/** Tessera's answers on revisits with a score of at least s, and how many of them were right. */
export function calibration(firsts: Map<string, Visit>, revisits: readonly Revisit[]) {
  return [0.5, 0.6, 0.7, 0.8, 0.9, 0.95].map((threshold) => {
    const answered = revisits.filter((entry) => entry.visit.confidence >= threshold)
    const right = answered.filter((entry) => entry.visit.visitorId === firsts.get(entry.profile)?.visitorId)
    return { threshold, answered: answered.length, right: right.length }
  })
}

/** Canonical JSON: object keys sorted at every level. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, inner]) => [key, canonical(inner)]),
  )
}

/** A component (`{ value, duration }` or `{ error, duration }`) without its duration, canonically. */
export function canonicalComponent(component: unknown): string {
  if (typeof component !== 'object' || component === null) return JSON.stringify(component)
  const { duration: _duration, ...rest } = component as Record<string, unknown>
  return JSON.stringify(canonical(rest))
}

/** Names of the components whose values differ between two visits. */
export function changedComponents(left: Visit, right: Visit): string[] {
  const names = new Set([...Object.keys(left.components), ...Object.keys(right.components)])
  return [...names].filter(
    (name) => canonicalComponent(left.components[name]) !== canonicalComponent(right.components[name]),
  )
}

/**
 * Launch stability: for each component, the profiles whose value was not the same in all their
 * launches of one unchanged browser (the first visit and "nothing changed" A and B).
 */
export function launchStability(launches: Map<string, Visit[]>): Map<string, number> {
  const counts = new Map<string, number>()
  for (const visits of launches.values()) {
    const changed = new Set<string>()
    const [first, ...rest] = visits
    if (!first) continue
    for (const other of rest) for (const name of changedComponents(first, other)) changed.add(name)
    for (const name of changed) counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return new Map([...counts].sort(([, a], [, b]) => b - a))
}
