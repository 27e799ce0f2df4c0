// The conditions a replay varies, none of which matching may depend on: where visits come from
// (address), in what order the server meets them (arrival, see accuracy-arrival.ts) and what the
// server already holds (population, see accuracy-population.ts). 3 × 2 × 2 = 12 cells.
import { seededRandom } from '../../tests/support/synthetic-devices'
import { type Arrival, arrivals, type Step } from './accuracy-arrival'

/** own: each profile its address, the travel address when it travels (as recorded); shared: every
 *  visit of every device from one address (an office or carrier NAT); fresh: a new, never-seen
 *  address on every visit, each in a network never seen either (a residential proxy, a mobile
 *  network). */
export const addressModes = ['own', 'shared', 'fresh'] as const
export type AddressMode = (typeof addressModes)[number]
/** fresh: an empty server; populated: one already holding synthetic devices of the corpus's kind. */
export const populationModes = ['fresh', 'populated'] as const
export type PopulationMode = (typeof populationModes)[number]

export interface Cell {
  address: AddressMode
  arrival: Arrival
  population: PopulationMode
  name: string
}

/** Carrier-grade NAT space: one address for everyone in the shared cells. */
export const sharedAddress = '100.64.0.1'

export const allCells: Cell[] = addressModes.flatMap((address) =>
  arrivals.flatMap((arrival) =>
    populationModes.map((population) => ({
      address,
      arrival,
      population,
      name: `${address}/${arrival}/${population}`,
    })),
  ),
)

/** BENCH_CELLS: comma-separated `address/arrival/population` patterns, `*` (or a missing part)
 *  for any, e.g. `shared/*,own/one-at-a-time/populated`. */
export function selectCells(patterns: string | undefined): Cell[] {
  if (!patterns?.trim()) return allCells
  const wanted = patterns.split(',').map((pattern) => pattern.trim().split('/'))
  const cells = allCells.filter((cell) =>
    wanted.some((parts) =>
      [cell.address, cell.arrival, cell.population].every(
        (value, index) => (parts[index] ?? '*') === '*' || parts[index] === value,
      ),
    ),
  )
  if (cells.length === 0) throw new Error(`BENCH_CELLS=${patterns} names no cell of ${allCells[0]?.name}, …`)
  return cells
}

/** First octets of the fresh addresses: public ranges no profile, traveller or synthetic device uses. */
const freshOctets = [2, 14, 23, 24, 27, 36, 39, 42, 49, 58, 60, 68, 71, 73, 86, 94, 98, 99, 101, 112]
const networkOf = (address: string) => address.split('.').slice(0, 3).join('.')

/** Where each step of a cell comes from. `seen`: every address the server may already know. */
export function addressFor(mode: AddressMode, seen: Iterable<string>, seed: number): (step: Step) => string {
  if (mode === 'own') return (step) => step.entry.state.address
  if (mode === 'shared') return () => sharedAddress
  const random = seededRandom(seed)
  const networks = new Set([...seen].map(networkOf))
  return () => {
    for (;;) {
      const octet = freshOctets[Math.floor(random() * freshOctets.length)] ?? 2
      const network = `${octet}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`
      if (networks.has(network)) continue
      networks.add(network)
      return `${network}.${2 + Math.floor(random() * 250)}`
    }
  }
}
