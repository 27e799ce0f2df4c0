// The replay matrix of bench:accuracy: one recording, replayed through identifyVisitor under every
// selected cell (address × arrival × population, accuracy-cells.ts), a report per cell, a summary
// of all cells, and the worst cell as the last line.
import { performance } from 'node:perf_hooks'
import { count } from 'drizzle-orm'
import { type Database, openDatabase } from '../../src/server/db/client'
import { visitors } from '../../src/server/db/schema'
import { fingerprintCeiling, firstVisitFloor } from './accuracy-ceiling'
import { addressFor, type Cell, populationModes } from './accuracy-cells'
import { latestVirtualTime, withVirtualClock } from './accuracy-clock'
import {
  explainEvidence,
  pct,
  printDebug,
  printMerges,
  printScenarioTable,
  toRevisit,
} from './accuracy-output'
import { buildPopulation } from './accuracy-population'
import { populate, type Recording, type ReplayedVisit, replayCell, replayStart } from './accuracy-replay'
import { type Accuracy, accuracyOf, calibration, type Library, libraries } from './accuracy-report'

export interface MatrixOptions {
  cells: Cell[]
  populationSize: number
  /** Seeds the synthetic population, the fresh addresses and the one-at-a-time order. */
  seed: number
  debug: boolean
}

interface CellResult {
  cell: Cell
  results: Record<Library, Accuracy>
  kept: Accuracy
  nothingChanged: number
  calibrated: boolean
  visits: number
  seconds: number
}

const log = (line: string) => console.log(line)
const seconds = (since: number) => (performance.now() - since) / 1000

function reportCell(
  visits: ReplayedVisit[],
  recording: Recording,
  debug: boolean,
  /**
   * On a populated server, per profile whose first visit is placed like a stored device's comeback
   * (firstVisitFloor), the visitor IDs of the stored devices that place it.
   */
  floor?: Map<string, Set<string>>,
) {
  const firsts = new Map(
    visits.filter((entry) => entry.phase === 'first').map((entry) => [entry.profile.name, entry.visit]),
  )
  const gone = visits.filter((entry) => entry.phase === 'gone')
  const kept = visits.filter((entry) => entry.phase === 'kept')
  printScenarioTable(firsts, gone)
  if (debug) printScenarioTable(firsts, gone, true)
  const results = Object.fromEntries(
    libraries.map((library) => [library, accuracyOf(firsts, gone.map(toRevisit), library)]),
  ) as Record<Library, Accuracy>
  printMerges(results, firsts.size, gone.length, recording.twins)
  // A populated server's devices are none of the profiles: a visit given one's ID is a false merge too.
  const heldFirsts = visits.filter((entry) => entry.phase === 'first' && entry.heldBefore).length
  const merged = new Set(results.tessera.mergedRevisits.map((revisit) => revisit.visit.requestId))
  const heldRevisits = gone.filter((entry) => entry.heldBefore).length
  const revisitsOnOthers = gone.filter(
    (entry) => entry.heldBefore || merged.has(entry.visit.requestId),
  ).length
  if (heldFirsts + heldRevisits > 0 || visits.some((entry) => entry.heldBefore)) {
    // Merged into a device that places it, not any stored device.
    const placed = visits.filter(
      (entry) =>
        entry.phase === 'first' &&
        entry.heldBefore &&
        entry.visit.visitorId !== undefined &&
        floor?.get(entry.profile.name)?.has(entry.visit.visitorId),
    ).length
    const floorNote = floor ? ` (${placed} of them into a device placing it like its comeback)` : ''
    log(
      `  tessera on a device the server held before the cell: first visits ${heldFirsts} of ${firsts.size}${floorNote}, revisits ${heldRevisits} of ${gone.length}`,
    )
  }
  results.tessera = {
    ...results.tessera,
    fm: Math.max(
      results.tessera.fm,
      firsts.size ? (100 * heldFirsts) / firsts.size : 0,
      gone.length ? (100 * revisitsOnOthers) / gone.length : 0,
    ),
  }
  // One at a time, a missed comeback stores the device a second time, and later comebacks may find
  // that copy: counted apart, so a new miss and a split carried on can be told apart.
  const earlier = new Map<string, Set<string>>()
  let misses = 0
  let carried = 0
  for (const entry of gone) {
    const ids = earlier.get(entry.profile.name) ?? new Set<string>()
    if (entry.visit.visitorId !== firsts.get(entry.profile.name)?.visitorId) {
      misses++
      if (ids.has(entry.visit.visitorId)) carried++
      ids.add(entry.visit.visitorId)
    }
    earlier.set(entry.profile.name, ids)
  }
  if (carried > 0)
    log(
      `  misses on an ID an earlier miss of the same profile got (a split carried on): ${carried} of ${misses}`,
    )
  const unchanged = gone.filter((entry) => entry.scenario.startsWith('nothing changed')).map(toRevisit)
  const nothingChanged = accuracyOf(firsts, unchanged, 'tessera').reid
  const rows = calibration(firsts, gone.map(toRevisit))
  const calibrated = rows.every((row) => row.answered === 0 || row.right / row.answered >= row.threshold)
  log(
    `  nothing changed: ${pct(nothingChanged)}; calibration (precision among answers with score >= s): ` +
      rows
        .map(
          (row) =>
            `${row.threshold.toFixed(2)} ${row.answered ? pct((100 * row.right) / row.answered) : '-'} (${row.answered})`,
        )
        .join(', ') +
      (calibrated ? ' ok' : ' NOT CALIBRATED'),
  )
  const keptResult = accuracyOf(firsts, kept.map(toRevisit), 'tessera')
  log(`  storage kept: tessera reid ${pct(keptResult.reid)} (${kept.length})`)
  if (debug) {
    printDebug(firsts, visits, results)
    for (const entry of visits.filter((visit) => visit.phase === 'first' && visit.heldBefore))
      log(
        `  first visit of ${entry.profile.name} taken for a device held before the cell${explainEvidence(entry)}`,
      )
  }
  return { results, kept: keptResult, nothingChanged, calibrated }
}

/**
 * Worst first: the lowest Tessera re-identification; a tie goes to the cell with more false merges,
 * then to the one earlier in the matrix's order (address, arrival, population).
 */
const worstFirst = (a: CellResult, b: CellResult) =>
  a.results.tessera.reid - b.results.tessera.reid || b.results.tessera.fm - a.results.tessera.fm

function printSummary(results: CellResult[]) {
  log('Summary of the cells (storage gone; fm: the larger false-merge share; calibrated: precision >= s')
  log('among answers with score >= s, for every s):')
  log(
    `  ${'cell'.padEnd(38)} ${'tessera'.padStart(8)} ${'fm'.padStart(6)} ${'nothing'.padStart(8)} ${'calibrated'.padStart(11)} ${'kept'.padStart(7)} ${'fpjs'.padStart(7)} ${'thumb'.padStart(7)} ${'visits/s'.padStart(9)}`,
  )
  for (const result of results) {
    const { results: figures } = result
    log(
      `  ${result.cell.name.padEnd(38)} ${pct(figures.tessera.reid).padStart(8)} ${pct(figures.tessera.fm).padStart(6)} ` +
        `${pct(result.nothingChanged).padStart(8)} ${(result.calibrated ? 'yes' : 'NO').padStart(11)} ${pct(result.kept.reid).padStart(7)} ` +
        `${pct(figures.fingerprintjs.reid).padStart(7)} ${pct(figures.thumbmark.reid).padStart(7)} ${Math.round(
          result.visits / result.seconds,
        )
          .toString()
          .padStart(9)}`,
    )
  }
}

const DAY = 86_400_000

export async function runMatrix(recording: Recording, options: MatrixOptions) {
  const started = performance.now()
  const seen = new Set(recording.recorded.map((entry) => entry.state.address))
  const results: CellResult[] = []
  // One database: the cells on an empty server first, each rolled back, then the population is
  // stored for good and the populated cells run over it. Each starts a day after the last visit
  // before it (see accuracy-clock.ts).
  const order = [...options.cells].sort(
    (a, b) => populationModes.indexOf(a.population) - populationModes.indexOf(b.population),
  )
  let ceiling: string | undefined
  let floor: Map<string, Set<string>> | undefined
  await withVirtualClock(replayStart, async () => {
    const handle = await openDatabase({ dataDir: 'memory://' })
    try {
      for (const cell of order) {
        if (
          cell.population === 'populated' &&
          !results.some((done) => done.cell.population === 'populated')
        ) {
          const stored = await storePopulation(handle.db, recording, options, seen)
          ceiling = stored.ceiling
          floor = stored.floor
        }
        const since = performance.now()
        const addressOf = addressFor(cell.address, seen, options.seed * 100 + options.cells.indexOf(cell))
        const start = latestVirtualTime() + DAY
        const visits = await replayCell(handle.db, recording, cell.arrival, addressOf, options.seed, start)
        const took = seconds(since)
        log('')
        log(`Cell ${cell.name}: ${visits.length} visits replayed in ${took.toFixed(1)} s`)
        const report = reportCell(
          visits,
          recording,
          options.debug,
          cell.population === 'populated' ? floor : undefined,
        )
        results.push({ cell, ...report, visits: visits.length, seconds: took })
      }
    } finally {
      await handle.close()
    }
  })
  results.sort((a, b) => options.cells.indexOf(a.cell) - options.cells.indexOf(b.cell))
  log('')
  printSummary(results)
  if (ceiling)
    log(
      `  (on the populated server, fingerprints alone can tell at most ${ceiling} of the revisits from a stored device)`,
    )
  if (floor)
    log(
      `  (and ${floor.size} of ${recording.profiles.length} first visits are about as close to a stored device as one of ` +
        `their own comebacks is to them: a false-merge floor of about ${pct((100 * floor.size) / Math.max(recording.profiles.length, 1))} ` +
        'for a method that finds those comebacks)',
    )
  log(`Replay: ${Math.round(seconds(started))} s`)
  const worst = [...results].sort(worstFirst)[0]
  const worstKept = [...results].sort((a, b) => a.kept.reid - b.kept.reid || b.kept.fm - a.kept.fm)[0]
  if (!worst || !worstKept) return
  const line = (library: Library, result: Accuracy) =>
    `${library} reid ${pct(result.reid)} fm ${pct(result.fm)}`
  log(`accuracy (storage kept): worst cell ${worstKept.cell.name} ${line('tessera', worstKept.kept)}`)
  log(
    `accuracy: worst cell ${worst.cell.name} ${libraries.map((library) => line(library, worst.results[library])).join(' | ')}`,
  )
}

/** Draws the synthetic population and stores it through identifyVisitor, saying how long each took. */
async function storePopulation(
  db: Database,
  recording: Recording,
  options: MatrixOptions,
  seen: Set<string>,
): Promise<{ ceiling: string; floor: Map<string, Set<string>> }> {
  let since = performance.now()
  const population = buildPopulation(recording, options.populationSize, options.seed)
  const built = seconds(since)
  since = performance.now()
  const visitorIds = await populate(db, population.devices, latestVirtualTime() + DAY)
  const stored = seconds(since)
  const [row] = await db.select({ visitors: count() }).from(visitors)
  for (const device of population.devices) seen.add(device.address)
  log('')
  log(
    `Population: ${population.devices.length} synthetic devices drawn in ${built.toFixed(1)} s ` +
      `(${pct(100 * population.exactShare)} of facets from a donor agreeing on all their fields, ` +
      `${population.refused} draws refused as corpus devices), identified in ${stored.toFixed(1)} s ` +
      `(${Math.round(population.devices.length / stored)}/s) as ${row?.visitors ?? 0} visitors. Facets (fields: components):`,
  )
  for (const facet of population.facets)
    log(`  ${facet.fields.join(' + ') || 'none'}: ${facet.components.join(' ')}`)
  since = performance.now()
  const ceiling = fingerprintCeiling(recording.recorded, population.devices)
  const share = (part: { revisits: number; ambiguous: number }) =>
    pct(part.revisits ? (100 * (part.revisits - part.ambiguous)) / part.revisits : 100)
  log(
    `Fingerprint ceiling on this population: ${share(ceiling)} of the ${ceiling.revisits} storage-gone revisits have no ` +
      'synthetic device as close to them as their own first visit on every facet (for the others, only what is ' +
      `not in the fingerprint can tell the device from a stored one; ${seconds(since).toFixed(1)} s). By scenario:`,
  )
  for (const [scenario, part] of ceiling.byScenario)
    if (part.ambiguous > 0)
      log(`  ${scenario}: ${share(part)} (${part.ambiguous} of ${part.revisits} ambiguous)`)
  since = performance.now()
  const placed = firstVisitFloor(recording.recorded, population.devices)
  log(
    `First visits about as close to a stored device as one of the profile's own comebacks is to its first visit ` +
      `(they differ from a synthetic device only in facets that comeback changed, no further off; ` +
      `${seconds(since).toFixed(1)} s): ${placed.size} of ${recording.profiles.length}` +
      [...placed]
        .map(
          ([name, { scenario, devices }]) =>
            `\n  ${name}: like its "${scenario}" (${devices.length} ${devices.length === 1 ? 'device' : 'devices'})`,
        )
        .join(''),
  )
  const floor = new Map(
    [...placed].map(([name, { devices }]) => [
      name,
      new Set(devices.flatMap((index) => visitorIds[index] ?? [])),
    ]),
  )
  return { ceiling: share(ceiling), floor }
}
