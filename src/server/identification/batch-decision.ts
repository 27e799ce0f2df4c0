import 'server-only'
import type { IdentifyRequest, IdentifyResponse } from '@/contracts/identify'
import type { StoredEvent } from '@/contracts/server-api'
import { computeSignals } from '../signals/compute-signals'
import { explainSuspectScore } from '../signals/suspect-score'
import type { VelocityRow } from '../signals/velocity'
import type { BatchOutcome } from './batch-queue'
import type { FacetName } from './component-model'
import { scoreConfidence } from './confidence'
import type { Digests, FingerprintProfile } from './fingerprint-profile'
import { type Candidate, type Match, matchVisitor } from './match-visitor'
import { newRequestId, newVisitorId } from './new-id'
import { newBrowserId, type VisitorToken } from './persistent-token'
import { compareFacets, type Population, type StoredProfile } from './score-evidence'

/** Earlier values kept per changed component, so a device that changes back is still itself. */
const PREVIOUS_VALUES = 2
/** A visit this long after the last one is a comeback, not another page of the same sitting. */
const COMEBACK_MS = 30 * 60_000

export interface IdentifyContext {
  ip: string | null
  userAgent: string | null
  /** Token from the HttpOnly cookie; preferred over the agent's stored copy. */
  cookieToken?: string
}

/** One request of a batch, with what its payload says before anything is read. */
export interface PreparedJob {
  input: IdentifyRequest
  context: IdentifyContext
  profile: FingerprintProfile
  keys: string[]
  token: VisitorToken | undefined
}

/** A stored visitor that some request of the batch may be, with its recent activity. */
export interface CandidateRow {
  id: string
  profile: Digests
  parts: Record<string, string>
  previous: Record<string, string[]>
  visits: number
  lastSeenAt: string
  velocity: VelocityRow
  /** The batch's requests (by index) this visitor is a candidate for. */
  jobs: number[]
}

/** What the batch read: every request's candidates and what weighs their evidence. */
export interface BatchRead {
  rows: CandidateRow[]
  population: Population
  sharers: Map<string, number>
}

export interface WrittenEvent {
  index: number
  event: StoredEvent
  job: PreparedJob
  match: Match
  previous: Record<string, string[]>
  browserId: string
}

export interface BatchDecision {
  /** Requests that must wait for another one of the batch (`blockedBy`); the others come after the write. */
  outcomes: BatchOutcome<IdentifyResponse>[]
  /** Events to store, sorted by visitor ID (the order rows are locked in). */
  written: WrittenEvent[]
  /** Value-count changes, `component\u0000digest` → delta, sorted by key. */
  changes: [string, number][]
  /** Change counts learned from token-confirmed revisits, sorted by facet. */
  facetsLearned: [FacetName, { observed: number; changed: number; close: number }][]
}

/**
 * Decides every request of a batch from what was read, in memory and without the database: who
 * each device is, its signals and event, and what the write must change. A request whose visitor,
 * or whose exact device (the same blocking keys: the same device's first visit twice), an earlier
 * request of the batch already claimed is answered with `blockedBy`: it runs again once that one is
 * stored, as if the two had come one after the other.
 */
export function decideBatch(
  prepared: PreparedJob[],
  { rows, population, sharers }: BatchRead,
  now: Date,
): BatchDecision {
  const outcomes: BatchOutcome<IdentifyResponse>[] = []
  const claimedVisitors = new Set<string>()
  const claimedDevices = new Map<string, string>()
  const stats = new Map<string, number>()
  const learned = new Map<FacetName, { observed: number; changed: number; close: number }>()
  const written: WrittenEvent[] = []
  prepared.forEach((job, index) => {
    const mine = rows.filter((row) => row.jobs.includes(index))
    const candidates: Candidate[] = mine.map((row) => ({
      visitorId: row.id,
      profile: storedProfile(row),
      lastSeenAt: Date.parse(row.lastSeenAt),
      visits: row.visits,
      recentIps: row.velocity.ips24h,
    }))
    const match = matchVisitor({
      current: job.profile,
      candidates,
      tokenVisitorId: job.token?.visitorId,
      population,
      context: { ip: job.context.ip, sharers: job.context.ip ? (sharers.get(job.context.ip) ?? 0) : 0 },
    })
    const visitorId = match.method === 'new' ? newVisitorId() : match.visitorId
    const device = job.keys.join(' ')
    const blockedBy = claimedVisitors.has(visitorId) ? visitorId : claimedDevices.get(device)
    if (blockedBy) {
      outcomes[index] = { blockedBy }
      return
    }
    claimedVisitors.add(visitorId)
    claimedDevices.set(device, visitorId)
    const row = match.method === 'new' ? undefined : mine.find((candidate) => candidate.id === visitorId)
    const stored = row ? storedProfile(row) : undefined
    addStatistics(stats, stored?.digests ?? {}, job.profile.digests)
    // Revisits the signed token confirms teach how often each facet changes for one device when
    // it comes back; page loads within one sitting would teach that nothing ever changes.
    const comeback = row !== undefined && now.getTime() - Date.parse(row.lastSeenAt) >= COMEBACK_MS
    if (match.method === 'token' && stored && comeback) learnChanges(learned, job.profile, stored)
    const confidence = scoreConfidence(match)
    const signals = computeSignals(job.input.components, {
      ip: job.context.ip,
      linkedId: job.input.linkedId,
      velocity: row?.velocity,
    })
    const event: StoredEvent = {
      requestId: newRequestId(now),
      visitorId,
      visitorFound: match.method !== 'new',
      createdAt: now.toISOString(),
      confidence: { score: confidence },
      ip: job.context.ip,
      userAgent: job.context.userAgent,
      url: job.input.url ?? null,
      siteKey: job.input.siteKey ?? null,
      tag: job.input.tag ?? null,
      linkedId: job.input.linkedId ?? null,
      signals,
      suspectScore: explainSuspectScore(signals).score,
    }
    written.push({
      index,
      event,
      job,
      match,
      previous: stored ? followPrevious(stored, job.profile) : {},
      // The browser keeps its own ID whoever it turns out to be; a browser without one gets a new one.
      browserId: job.token?.browserId ?? newBrowserId(),
    })
  })

  // Rows are written in a fixed order (visitor ID, key, component), so app servers sharing one
  // PostgreSQL lock them in the same order and never deadlock each other.
  written.sort((a, b) => byText(a.event.visitorId, b.event.visitorId))
  return {
    outcomes,
    written,
    changes: [...stats].filter(([, delta]) => delta !== 0).sort(([a], [b]) => byText(a, b)),
    facetsLearned: [...learned].sort(([a], [b]) => byText(a, b)),
  }
}

export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Per-visitor value counts move with the visitor's profile: -1 for old values, +1 for new ones,
 * summed over the batch by `component\u0000digest`.
 */
function addStatistics(totals: Map<string, number>, previous: Digests, current: Digests) {
  const add = (component: string, digest: string, delta: number) => {
    const key = `${component}\u0000${digest}`
    totals.set(key, (totals.get(key) ?? 0) + delta)
  }
  for (const [component, digest] of Object.entries(current)) {
    const before = previous[component]
    if (before === digest) continue
    if (before !== undefined) add(component, before, -1)
    add(component, digest, 1)
  }
  for (const [component, digest] of Object.entries(previous)) {
    if (!(component in current)) add(component, digest, -1)
  }
}

function storedProfile(row: CandidateRow): StoredProfile {
  return { digests: row.profile, parts: row.parts ?? {}, previous: row.previous ?? {} }
}

/** The earlier values to keep: for each component that changed, its last value first. */
function followPrevious(stored: StoredProfile, current: FingerprintProfile): Record<string, string[]> {
  const previous: Record<string, string[]> = {}
  for (const [name, digest] of Object.entries(current.digests)) {
    const before = stored.digests[name]
    const kept =
      before && before !== digest ? [before, ...(stored.previous[name] ?? [])] : (stored.previous[name] ?? [])
    const distinct = [...new Set(kept)].filter((value) => value !== digest).slice(0, PREVIOUS_VALUES)
    if (distinct.length) previous[name] = distinct
  }
  return previous
}

function learnChanges(
  totals: Map<FacetName, { observed: number; changed: number; close: number }>,
  current: FingerprintProfile,
  stored: StoredProfile,
) {
  for (const { facet, level } of compareFacets(current, stored)) {
    const counts = totals.get(facet) ?? { observed: 0, changed: 0, close: 0 }
    counts.observed++
    if (level !== 'exact') counts.changed++
    if (level === 'close') counts.close++
    totals.set(facet, counts)
  }
}
