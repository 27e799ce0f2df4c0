// Record and replay for bench:accuracy. The browser run keeps what Tessera saw (each visit's
// components and address, and the peers' IDs) in a recording; a replay sends the same components
// again through identifyVisitor on in-memory databases, under conditions the browser run cannot
// vary cheaply (accuracy-cells.ts): where the visits come from, in what order the server meets them,
// and what it already holds. The peers' IDs are the recorded ones (they keep no state). Each visit
// happens at a time the replay sets (accuracy-clock.ts): first visits a minute apart, a comeback
// at least half an hour after the device's visit before it, all within a day.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { inArray } from 'drizzle-orm'
import type { ComponentResult } from '../../src/contracts/identify'
import type { Database } from '../../src/server/db/client'
import { events } from '../../src/server/db/schema'
import { identifyVisitor } from '../../src/server/identification/identify-visitor'
import { learnModel } from '../../src/server/identification/learn-model'
import { type Arrival, type Stage, type Step, schedule } from './accuracy-arrival'
import { setVirtualTime } from './accuracy-clock'
import type { Profile } from './accuracy-corpus'
import type { Recorded } from './accuracy-output'
import type { SyntheticDevice } from './accuracy-population'

export interface Recording {
  profiles: Profile[]
  twins: [Profile, Profile][]
  recorded: Recorded[]
  chromeMajor: number
  /** BENCH_SEED of the browser run (absent: the default corpus, or a recording made before it was kept). */
  seed?: number
}

/** Written beside the file, then renamed over it: a reader never meets half a recording. */
export function saveRecording(file: string, recording: Recording) {
  writeFileSync(`${file}.part`, JSON.stringify(recording))
  renameSync(`${file}.part`, file)
}

export function loadRecording(file: string): Recording {
  return JSON.parse(readFileSync(file, 'utf8')) as Recording
}

/** The replay's first day (virtual): the population arrives over it, each cell a day after the last. */
export const replayStart = Date.UTC(2026, 0, 12, 8)
const MINUTE = 60_000
const HOUR = 60 * MINUTE
/** Revisits of a first-visits-first batch sent at once (first visits and one-at-a-time: one by one). */
const CONCURRENT_REVISITS = Number(process.env.BENCH_REPLAY_CONCURRENCY ?? 16)

const userAgentOf = (components: Record<string, unknown>): string | null => {
  const component = components.userAgent as { value?: unknown } | undefined
  return typeof component?.value === 'string' ? component.value : null
}

function identify(db: Database, components: Record<string, unknown>, ip: string, token?: string) {
  return identifyVisitor({
    db,
    input: { components: components as Record<string, ComponentResult> },
    context: { ip, userAgent: userAgentOf(components), cookieToken: token },
  })
}

/** Sends the synthetic devices' first visits (64 at once, as a busy server batches them) over the
 *  day from `from`, into `db` for good. Returns each device's visitor ID, in order. */
export async function populate(db: Database, devices: readonly SyntheticDevice[], from: number) {
  const chunk = 64
  const learning = learningSchedule()
  const visitorIds: string[] = []
  for (let start = 0; start < devices.length; start += chunk) {
    setVirtualTime(from + Math.round((start / devices.length) * 24 * HOUR))
    const answers = await Promise.all(
      devices.slice(start, start + chunk).map((device) => identify(db, device.components, device.address)),
    )
    visitorIds.push(...answers.map((answer) => answer.visitorId))
    await learning(db, chunk)
  }
  await learnModel({ db })
  return visitorIds
}

/** Every ten minutes, as the server does (learn-model.ts). */
const LEARNING_INTERVAL = 10 * MINUTE
/**
 * The server's background learning (learn-model.ts), run as its timer would: every ten minutes of
 * the replay's time, and at most once per LEARNING_VISITS visits (a replay sends in seconds what a
 * server meets over days, so a pass per ten minutes would be one per visit in some cells).
 */
const LEARNING_VISITS = 20

function learningSchedule() {
  let last = Number.NEGATIVE_INFINITY
  // The first call runs a pass whatever the visits since: a stage begins after time has passed (a
  // cell a day after the last, a batch half an hour after the first visits), over which a server's
  // timer would have run. Without it, a cell's first visits met the stored devices' ages measured
  // a day earlier: every synthetic device sat, for recency, in a bucket that pass had seen empty
  // (+3 bits each).
  let visits = LEARNING_VISITS
  return async (db: Database, count = 1) => {
    visits += count
    const now = Date.now()
    if (now - last < LEARNING_INTERVAL || visits < LEARNING_VISITS) return
    await learnModel({ db, now: new Date(now) })
    last = now
    visits = 0
  }
}

class Rollback extends Error {}

/**
 * Runs `task` in a transaction that is then rolled back: a cell, or a batch of revisits, leaves
 * the database as it found it (far cheaper than a database per batch). identifyVisitor's own
 * transactions become savepoints inside it; it reads and writes only through the `db` it is given.
 */
async function rolledBack<T>(db: Database, task: (tx: Database) => Promise<T>): Promise<T> {
  let result: { value: T } | undefined
  try {
    await db.transaction(async (tx) => {
      result = { value: await task(tx) }
      throw new Rollback()
    })
  } catch (error) {
    if (!(error instanceof Rollback)) throw error
  }
  if (!result) throw new Error('A rolled-back task without its result')
  return result.value
}

export interface ReplayedVisit extends Recorded {
  /** Answered with the ID of a device the server held before the cell (a synthetic one). */
  heldBefore: boolean
}

/**
 * Replays a recording under one arrival from `start` on, each visit from `addressOf(step)`, on `db`
 * as it is (empty or populated), leaving it so. Returns the visits with Tessera's answers and the
 * steps' labels as their scenarios, first visits first. Each batch of revisits after the first
 * visits starts at the same time: one batch's time since the first visits is any other's.
 */
export function replayCell(
  db: Database,
  recording: Recording,
  arrival: Arrival,
  addressOf: (step: Step) => string,
  seed: number,
  start: number,
): Promise<ReplayedVisit[]> {
  const tokens = new Map<string, string>()
  const runStage = async (tx: Database, stage: Stage): Promise<ReplayedVisit[]> => {
    const answers: ReplayedVisit[] = []
    // A batch of revisits against the first visits meets the server some at once, as a busy
    // server's batches do (each device once in the batch, so none waits for another's write);
    // submitted together, they form the same batches on every run.
    const together = stage.afterFirsts ? CONCURRENT_REVISITS : 1
    const learning = learningSchedule()
    for (let from = 0; from < stage.steps.length; from += together) {
      const steps = stage.steps.slice(from, from + together)
      setVirtualTime(start + (steps[0]?.at ?? 0) * MINUTE)
      await learning(tx, steps.length)
      const sent = steps.map((step) => {
        const ip = addressOf(step)
        const token = step.token ? tokens.get(step.entry.profile.name) : undefined
        return { step, ip, answer: identify(tx, step.entry.visit.components, ip, token) }
      })
      for (const { step, ip, answer: pending } of sent) {
        const { entry } = step
        const answer = await pending
        if (entry.phase === 'first') tokens.set(entry.profile.name, answer.storedToken)
        answers.push({
          ...entry,
          scenario: step.label,
          state: { ...entry.state, address: ip },
          visit: {
            ...entry.visit,
            visitorId: answer.visitorId,
            requestId: answer.requestId,
            confidence: answer.confidence.score,
          },
          event: undefined,
          heldBefore: Date.parse(answer.firstSeenAt) < start,
        })
      }
    }
    const stored = await tx
      .select({
        requestId: events.requestId,
        ip: events.ip,
        method: events.method,
        evidence: events.evidence,
      })
      .from(events)
      .where(
        inArray(
          events.requestId,
          answers.map((answer) => answer.visit.requestId),
        ),
      )
    const byRequest = new Map(stored.map(({ requestId, ...event }) => [requestId, event]))
    for (const answer of answers) answer.event = byRequest.get(answer.visit.requestId)
    return answers
  }
  return rolledBack(db, async (cell) => {
    const [first, ...rest] = schedule(recording.recorded, arrival, seed)
    if (!first) return []
    // The first stage stays for the ones after it, which each start from it (first-visits-first).
    const replayed = await runStage(cell, first)
    for (const stage of rest) replayed.push(...(await rolledBack(cell, (tx) => runStage(tx, stage))))
    const order = { first: 0, gone: 1, kept: 2 }
    return replayed.sort((a, b) => order[a.phase] - order[b.phase])
  })
}
