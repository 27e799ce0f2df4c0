// Which settings of a device each component shows, worked out from a recording alone (no list of
// what each agent source reads, which would go stale as sources change).
// 1. Launch noise: how often a component differs between two launches of one unchanged state.
// 2. A field a scenario changes alone (window, scale, languages, time zone, fonts, appearance,
//    version, …): the component depends on it when it differs, more often than launch noise,
//    between recorded visits whose states differ in that field only.
// 3. A field the recording never changes alone (the GPU path and the screen only change with the
//    hardware group, the primary locale only with a twin's languages): added, best first, while
//    visits that agree on the fields found so far still disagree on the value more than noise.
import type { DeviceState } from './accuracy-corpus'
import { canonicalComponent } from './accuracy-report'

export type Field = Exclude<keyof DeviceState, 'address'>
export const stateFields: Field[] = [
  'fonts',
  'gpu',
  'screen',
  'window',
  'scale',
  'locale',
  'languages',
  'timezone',
  'colorScheme',
  'reducedMotion',
  'contrast',
  'forcedColors',
  'versionBump',
]

export interface Observed {
  state: DeviceState
  components: Record<string, unknown>
}

/** How far above launch noise a difference must be to count. */
const MARGIN = 0.05

export const projection = (state: DeviceState, fields: readonly Field[]) =>
  fields.map((field) => JSON.stringify(state[field])).join('|')

function buckets<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const map = new Map<string, T[]>()
  for (const item of items) {
    const list = map.get(key(item))
    if (list) list.push(item)
    else map.set(key(item), [item])
  }
  return [...map.values()]
}

export interface Dependencies {
  /** Component → the fields its value depends on, in `stateFields` order. */
  fields: Map<string, Field[]>
  /** Fields some pair of recorded visits differs in alone. */
  isolated: Field[]
  /** Component → share of launches of one unchanged state that differ from the first. */
  noise: Map<string, number>
}

export function componentDependencies(visits: readonly Observed[]): Dependencies {
  const names = [...new Set(visits.flatMap((visit) => Object.keys(visit.components)))].sort()
  const values = visits.map(
    (visit) => new Map(names.map((name) => [name, canonicalComponent(visit.components[name])])),
  )
  const indexed = visits.map((visit, index) => ({
    state: visit.state,
    values: values[index] as Map<string, string>,
  }))
  type Item = (typeof indexed)[number]
  // Pairs (a reference and another visit) within buckets of visits that agree on `key`, and for
  // each component the share of them whose values differ.
  const differing = (key: (item: Item) => string, apart: (a: Item, b: Item) => boolean) => {
    const counts = new Map(names.map((name) => [name, 0]))
    let pairs = 0
    for (const bucket of buckets(indexed, key)) {
      const [reference, ...rest] = bucket
      if (!reference) continue
      for (const other of rest.filter((item) => apart(reference, item))) {
        pairs++
        for (const name of names)
          if (reference.values.get(name) !== other.values.get(name))
            counts.set(name, (counts.get(name) ?? 0) + 1)
      }
    }
    return { pairs, share: (name: string) => (pairs ? (counts.get(name) ?? 0) / pairs : 0) }
  }
  const sameState = differing(
    (item) => projection(item.state, stateFields),
    () => true,
  )
  const noise = new Map(names.map((name) => [name, sameState.share(name)]))
  const isolated: Field[] = []
  const found = new Map<string, Field[]>(names.map((name) => [name, []]))
  for (const field of stateFields) {
    const others = stateFields.filter((other) => other !== field)
    const alone = differing(
      (item) => projection(item.state, others),
      (a, b) => JSON.stringify(a.state[field]) !== JSON.stringify(b.state[field]),
    )
    if (alone.pairs === 0) continue
    isolated.push(field)
    for (const name of names)
      if (alone.share(name) > (noise.get(name) ?? 0) + MARGIN) found.get(name)?.push(field)
  }
  // Share of visits whose value is not the most common one among the visits agreeing on `fields`.
  const conflict = (name: string, fields: readonly Field[]) => {
    let off = 0
    for (const bucket of buckets(indexed, (item) => projection(item.state, fields))) {
      const tally = new Map<string | undefined, number>()
      for (const item of bucket) tally.set(item.values.get(name), (tally.get(item.values.get(name)) ?? 0) + 1)
      off += bucket.length - Math.max(...tally.values())
    }
    return off / Math.max(indexed.length, 1)
  }
  const unisolated = stateFields.filter((field) => !isolated.includes(field))
  const fields = new Map<string, Field[]>()
  for (const name of names) {
    const chosen = found.get(name) ?? []
    const allowed = (noise.get(name) ?? 0) + MARGIN
    for (let current = conflict(name, chosen); current > allowed; ) {
      const options = unisolated
        .filter((field) => !chosen.includes(field))
        .map((field) => ({ field, left: conflict(name, [...chosen, field]) }))
        .sort((a, b) => a.left - b.left)
      const best = options[0]
      if (!best || best.left >= current) break
      chosen.push(best.field)
      current = best.left
    }
    fields.set(
      name,
      stateFields.filter((field) => chosen.includes(field)),
    )
  }
  return { fields, isolated, noise }
}
