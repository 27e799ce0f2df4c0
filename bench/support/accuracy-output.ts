// What bench:accuracy prints: its own checks, the per-scenario table, false merges, launch
// stability, Tessera's confidence calibration, the storage-kept figure, then the two last lines.
import type { Visit } from './accuracy-browser'
import type { DeviceState, Profile } from './accuracy-corpus'
import { fontFamilies } from './accuracy-fonts'
import {
  type Accuracy,
  accuracyOf,
  calibration,
  changedComponents,
  type Library,
  launchStability,
  libraries,
  type Revisit,
} from './accuracy-report'
import { pairPrefix, pairScenarios } from './accuracy-scenarios'
import type { StoredEvent } from './accuracy-server'

export interface Recorded {
  profile: Profile
  state: DeviceState
  visit: Visit
  event: StoredEvent | undefined
  phase: 'first' | 'gone' | 'kept'
  scenario: string
  /** The launches measured together against the first visits (a scenario, or a slot of pairs);
   *  absent in recordings made before pairs: the scenario. */
  batch?: string
}

interface ReportInput {
  profiles: readonly Profile[]
  twins: readonly [Profile, Profile][]
  recorded: readonly Recorded[]
  chromeMajor: number
  debug: boolean
}

const log = (line: string) => console.log(line)
export const pct = (value: number) => `${value.toFixed(1)}%`
const componentValue = (visit: Visit, name: string): unknown => {
  const component = visit.components[name]
  return typeof component === 'object' && component !== null && 'value' in component
    ? component.value
    : undefined
}

/** ICU's own name of a zone: Chromium shows Asia/Kolkata as Asia/Calcutta. */
function canonicalZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    return zone
  }
}

/** The bench checks itself: each page must have shown the state it was launched with. */
function printChecks(recorded: readonly Recorded[], chromeMajor: number) {
  const fontNames = (entry: Recorded) => entry.state.fonts.map((family) => fontFamilies[family].name).sort()
  // Tessera's own pages load Inter as a web font, so every visit there sees it.
  const sortedSeen = (entry: Recorded) => {
    const seen = componentValue(entry.visit, 'fonts')
    return Array.isArray(seen) ? seen.filter((name) => name !== 'Inter').sort() : seen
  }
  // [what, the bench's value, what the page or the server showed]
  const checks: [string, (entry: Recorded) => unknown, (entry: Recorded) => unknown][] = [
    ['stored address is the forwarded one', (entry) => entry.state.address, (entry) => entry.event?.ip],
    [
      'navigator.languages',
      (entry) => entry.state.languages,
      (entry) => componentValue(entry.visit, 'languages'),
    ],
    [
      'Intl locale',
      (entry) => entry.state.locale,
      (entry) => (componentValue(entry.visit, 'intlLocale') as { locale?: string } | undefined)?.locale,
    ],
    [
      'time zone',
      (entry) => canonicalZone(entry.state.timezone),
      (entry) => canonicalZone(String(componentValue(entry.visit, 'timezone'))),
    ],
    ['font families', fontNames, sortedSeen],
    [
      'colour scheme',
      (entry) => entry.state.colorScheme,
      (entry) => componentValue(entry.visit, 'colorScheme'),
    ],
    [
      'device pixel ratio',
      (entry) => entry.state.scale,
      (entry) => componentValue(entry.visit, 'devicePixelRatio'),
    ],
    [
      'reduced motion',
      (entry) => entry.state.reducedMotion,
      (entry) => componentValue(entry.visit, 'reducedMotion'),
    ],
    [
      'browser major version',
      (entry) => chromeMajor + entry.state.versionBump,
      (entry) => Number(/Chrome\/(\d+)/.exec(String(componentValue(entry.visit, 'userAgent')))?.[1]),
    ],
  ]
  log(`Checks (${recorded.length} visits: did each page show what its launch set?):`)
  for (const [name, expected, seen] of checks) {
    const failed = recorded.filter((entry) => JSON.stringify(expected(entry)) !== JSON.stringify(seen(entry)))
    log(`  ${name}: ${recorded.length - failed.length}/${recorded.length}`)
    for (const entry of failed.slice(0, 3))
      log(
        `    ${entry.profile.name} (${entry.scenario}): set ${JSON.stringify(expected(entry))}, saw ${JSON.stringify(seen(entry))}`,
      )
  }
}

/** Rows of the scenario table: each scenario, the pairs added up as one row, in the order they
 *  first occur; with `pairs`, only the pairs, each apart. */
export function scenarioRows(
  gone: readonly Recorded[],
  pairs: boolean,
): { name: string; entries: Recorded[] }[] {
  const allPairs = 'two changes (all pairs)'
  const isPair = (entry: Recorded) => entry.scenario.startsWith(pairPrefix)
  const rowOf = (entry: Recorded) => (!pairs && isPair(entry) ? allPairs : entry.scenario)
  const shown = pairs ? gone.filter(isPair) : gone
  const names = [...new Set(shown.map(rowOf))]
  const pairOrder = (name: string) => pairScenarios.findIndex((pair) => pair.name === name)
  if (pairs) names.sort((a, b) => pairOrder(a) - pairOrder(b))
  return names.map((name) => ({ name, entries: shown.filter((entry) => rowOf(entry) === name) }))
}

export function printScenarioTable(firsts: Map<string, Visit>, gone: readonly Recorded[], pairs = false) {
  log(
    `  ${'scenario'.padEnd(38)} ${'n'.padStart(4)}  ${libraries.map((name) => name.padStart(14)).join('')}  tessera→other`,
  )
  for (const { name, entries } of scenarioRows(gone, pairs)) {
    const rows = entries.map(toRevisit)
    const cells = libraries.map((library) => pct(accuracyOf(firsts, rows, library).reid).padStart(14))
    const wrong = accuracyOf(firsts, rows, 'tessera').mergedRevisits.length
    log(`  ${name.padEnd(38)} ${String(rows.length).padStart(4)}  ${cells.join('')}  ${wrong}`)
  }
}

export const toRevisit = (entry: Recorded): Revisit => ({
  profile: entry.profile.name,
  scenario: entry.scenario,
  visit: entry.visit,
})

export function printMerges(
  results: Record<Library, Accuracy>,
  profiles: number,
  revisits: number,
  twins: readonly [Profile, Profile][],
) {
  const pairs = (profiles * (profiles - 1)) / 2
  const twinKeys = new Set(twins.map(([a, b]) => `${a.name} ${b.name}`))
  log(
    `False merges (a: pairs of profiles that ever shared an ID, of ${pairs}; b: revisits on another profile's first-visit ID, of ${revisits}):`,
  )
  for (const library of libraries) {
    const result = results[library]
    const twinMerges = result.mergedPairs.filter(([a, b]) => twinKeys.has(`${a} ${b}`)).length
    log(
      `  ${library.padEnd(13)} a ${result.mergedPairs.length} (${pct(result.pairMerges)}; twins ${twinMerges}/${twins.length})` +
        `  b ${result.mergedRevisits.length} (${pct(result.revisitMerges)})  fm ${pct(result.fm)}`,
    )
  }
}

function printStability(recorded: readonly Recorded[], profiles: number) {
  const launches = new Map<string, Visit[]>()
  for (const entry of recorded)
    if (entry.phase === 'first' || entry.scenario.startsWith('nothing changed'))
      launches.set(entry.profile.name, [...(launches.get(entry.profile.name) ?? []), entry.visit])
  const counts = launchStability(launches)
  log(
    `Launch stability (first visit, "nothing changed" A and B): profiles whose component changed, of ${profiles}:`,
  )
  if (counts.size === 0) log('  none')
  for (const [name, count] of counts) log(`  ${name}: ${count}`)
}

/** A miss's stored evidence in brief: the total, the twin test, the address, the facets that counted against it. */
export function explainEvidence(entry: Recorded): string {
  const evidence = entry.event?.evidence as
    | {
        bits: number
        twinBits: number
        contextBits: number
        recencyBits?: number
        jointBits?: number
        facets: { facet: string; level: string; bits: number }[]
      }
    | null
    | undefined
  if (!evidence) return ''
  const list = (keep: (bits: number) => boolean) =>
    evidence.facets
      .filter((facet) => keep(facet.bits))
      .map((facet) => `${facet.facet} ${facet.level} ${facet.bits.toFixed(1)}`)
      .join(', ')
  const [support, against] = [list((bits) => bits >= 0), list((bits) => bits < 0)]
  return `; evidence (closest stored visitor): bits ${evidence.bits.toFixed(1)}, twin ${evidence.twinBits.toFixed(2)}, address ${evidence.contextBits.toFixed(1)}, recency ${(evidence.recencyBits ?? 0).toFixed(1)} (joint ${(evidence.jointBits ?? 0).toFixed(1)} of the bits)${support ? `; for: ${support}` : ''}${against ? `; against: ${against}` : ''}`
}

export function printDebug(
  firsts: Map<string, Visit>,
  recorded: readonly Recorded[],
  results: Record<Library, Accuracy>,
  /** What the server stored about a miss. */
  explain: (entry: Recorded) => string = explainEvidence,
) {
  // The profile that first got each ID (corpus order).
  const ownerOf = new Map<string, string>()
  for (const [profile, visit] of firsts)
    if (!ownerOf.has(visit.visitorId)) ownerOf.set(visit.visitorId, profile)
  const firstOf = new Map(
    recorded.filter((entry) => entry.phase === 'first').map((entry) => [entry.profile.name, entry]),
  )
  const explainFirst = (profile: string) => {
    const entry = firstOf.get(profile)
    return entry ? explain(entry) : ''
  }
  const firstMerges = [...firsts].filter(([profile, visit]) => ownerOf.get(visit.visitorId) !== profile)
  for (const [profile, visit] of firstMerges)
    log(
      `Tessera gave ${profile}'s first visit the ID of ${ownerOf.get(visit.visitorId)}'s (method ${firstOf.get(profile)?.event?.method ?? '?'})${explainFirst(profile)}`,
    )
  log('Tessera misses (revisit, what it got, how it was matched, components changed since the first visit):')
  for (const entry of recorded) {
    const first = firstOf.get(entry.profile.name)
    if (entry.phase === 'first' || !first || entry.visit.visitorId === first.visit.visitorId) continue
    const owner = ownerOf.get(entry.visit.visitorId)
    const got = owner ? `the first-visit ID of ${owner}` : 'an ID no first visit had'
    const changed = changedComponents(first.visit, entry.visit).join(', ') || 'none'
    log(
      `  ${entry.profile.name} ${entry.scenario}: ${got} (method ${entry.event?.method ?? '?'}, ` +
        `confidence ${entry.visit.confidence.toFixed(2)}); changed: ${changed}${explain(entry)}`,
    )
  }
  for (const library of libraries) {
    const merged = results[library].mergedPairs
    if (merged.length) log(`${library} merged pairs: ${merged.map(([a, b]) => `${a}+${b}`).join(' ')}`)
  }
}

export function printReport(input: ReportInput) {
  const { recorded } = input
  const firsts = new Map(
    recorded.filter((entry) => entry.phase === 'first').map((entry) => [entry.profile.name, entry.visit]),
  )
  const gone = recorded.filter((entry) => entry.phase === 'gone')
  const kept = recorded.filter((entry) => entry.phase === 'kept')
  printChecks(recorded, input.chromeMajor)
  log('Storage gone, re-identification by scenario (revisit ID = first-visit ID):')
  printScenarioTable(firsts, gone)
  if (input.debug) printScenarioTable(firsts, gone, true)
  const results = Object.fromEntries(
    libraries.map((library) => [library, accuracyOf(firsts, gone.map(toRevisit), library)]),
  ) as Record<Library, Accuracy>
  printMerges(results, firsts.size, gone.length, input.twins)
  printStability(recorded, firsts.size)
  log('Confidence calibration (Tessera, storage-gone revisits answered with score >= s):')
  for (const row of calibration(firsts, gone.map(toRevisit)))
    log(
      `  s >= ${row.threshold.toFixed(2)}: ${row.answered} answers, precision ${row.answered ? pct((100 * row.right) / row.answered) : '-'}`,
    )
  log('Storage kept (token path), by scenario:')
  for (const scenario of [...new Set(kept.map((entry) => entry.scenario))]) {
    const rows = kept.filter((entry) => entry.scenario === scenario).map(toRevisit)
    log(
      `  ${scenario.padEnd(28)} ${String(rows.length).padStart(4)}  tessera ${pct(accuracyOf(firsts, rows, 'tessera').reid)}`,
    )
  }
  if (input.debug) printDebug(firsts, recorded, results)
  const keptResult = accuracyOf(firsts, kept.map(toRevisit), 'tessera')
  const line = (library: Library, result: Accuracy) =>
    `${library} reid ${pct(result.reid)} fm ${pct(result.fm)}`
  log(`live run, storage kept: ${line('tessera', keptResult)}`)
  log(`live run, storage gone: ${libraries.map((library) => line(library, results[library])).join(' | ')}`)
}
