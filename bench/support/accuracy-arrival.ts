// The order and times in which a replay cell's server meets the recorded visits.
// - first-visits-first (as the browser run does): every first visit, then each batch of revisits
//   (a scenario, a slot of pairs, the storage-kept visits) against the database as the first
//   visits left it.
// - one-at-a-time: devices in a shuffled (seeded) order, each one's first visit then all its
//   comebacks in a fixed sequence on one database, nothing put back: a comeback meets a stored
//   profile updated by the ones before it, and a look-alike's first visit may come after other
//   devices' comebacks. The sequence switches the appearance back and forth by replaying recorded
//   launches at another moment, and ends with the visits that claim a newer browser (a browser
//   is updated, never downgraded, so after a bump every later visit would show it).
import { seededRandom } from '../../tests/support/synthetic-devices'
import type { Recorded } from './accuracy-output'

export const arrivals = ['first-visits-first', 'one-at-a-time'] as const
export type Arrival = (typeof arrivals)[number]

export interface Step {
  /** The recorded launch sent again (its components, its peers' IDs, its state). */
  entry: Recorded
  /** Its row in the scenario table. */
  label: string
  /** Minutes from the start of the cell. */
  at: number
  /** Presents the token its profile's first visit got (storage kept). */
  token: boolean
}

export interface Stage {
  name: string
  /** Starts from the database as the first visits left it (else from the cell's starting one). */
  afterFirsts: boolean
  steps: Step[]
}

const batchOf = (entry: Recorded) => entry.batch ?? entry.scenario
/** Between two visits of one device in one-at-a-time: a comeback, not another page of a sitting. */
const COMEBACK_MINUTES = 40

/** One device's comebacks in one-at-a-time, by batch; a label renames a replayed launch. */
const sequence: { batch: string; label?: string }[] = [
  { batch: 'nothing changed (launch A)' },
  { batch: 'dark mode switched' },
  { batch: 'nothing changed (launch A)', label: 'appearance switched back' },
  { batch: 'window size' },
  { batch: 'language added' },
  { batch: 'time zone' },
  { batch: 'storage kept' },
  { batch: 'dark mode switched', label: 'appearance switched again' },
  { batch: 'font family added' },
  { batch: 'font family removed' },
  { batch: 'nothing changed (launch B)' },
  { batch: 'display scale changed' },
  { batch: 'time zone + language' },
  { batch: 'two changes (slot 1)' },
  { batch: 'two changes (slot 2)' },
  { batch: 'two changes (slot 3)' },
  { batch: 'two changes (slot 4)' },
  { batch: 'browser version bump' },
  { batch: 'window + version' },
]

const step = (entry: Recorded, at: number, label = entry.scenario): Step => ({
  entry,
  label,
  at,
  token: entry.phase === 'kept',
})

export function schedule(recorded: readonly Recorded[], arrival: Arrival, seed: number): Stage[] {
  const firsts = recorded.filter((entry) => entry.phase === 'first')
  const later = recorded.filter((entry) => entry.phase !== 'first')
  if (arrival === 'first-visits-first') {
    const batches = [...new Set(later.map(batchOf))]
    // A minute apart; revisits start half an hour after the last first visit.
    const start = firsts.length + 30
    return [
      { name: 'first visits', afterFirsts: false, steps: firsts.map((entry, index) => step(entry, index)) },
      ...batches.map((batch) => ({
        name: batch,
        afterFirsts: true,
        steps: later
          .filter((entry) => batchOf(entry) === batch)
          .map((entry, index) => step(entry, start + index)),
      })),
    ]
  }
  const random = seededRandom(seed)
  const order = [...firsts]
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    ;[order[index], order[other]] = [order[other] as Recorded, order[index] as Recorded]
  }
  const steps: Step[] = []
  let at = 0
  for (const first of order) {
    const own = later.filter((entry) => entry.profile.name === first.profile.name)
    const planned = sequence.flatMap(({ batch, label }) =>
      own.filter((entry) => batchOf(entry) === batch).map((entry) => ({ entry, label })),
    )
    // Batches the sequence does not name (a recording of another kind) follow in recorded order.
    const unplanned = own
      .filter((entry) => !sequence.some(({ batch }) => batch === batchOf(entry)))
      .map((entry) => ({ entry, label: undefined }))
    const comebacks = [...planned, ...unplanned].sort(
      (a, b) => Number(a.entry.state.versionBump > 0) - Number(b.entry.state.versionBump > 0),
    )
    steps.push(step(first, at))
    for (const { entry, label } of comebacks) {
      at += COMEBACK_MINUTES
      steps.push(step(entry, at, label))
    }
    at += COMEBACK_MINUTES
  }
  return [{ name: 'one device at a time', afterFirsts: false, steps }]
}
