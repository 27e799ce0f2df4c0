import 'server-only'
import type { ComponentResult, IdentifyRequest, IdentifyResponse } from '@/contracts/identify'
import type { StoredEvent } from '@/contracts/server-api'
import type { SmartSignals } from '@/contracts/signals'
import type { AddressInfo } from '../network/network-data'
import { computeSignals } from '../signals/compute-signals'
import { addToActivity } from '../signals/ip-velocity'
import type { RequestEvidence } from '../signals/request-evidence'
import { explainSuspectScore } from '../signals/suspect-score'
import type { VelocityRow } from '../signals/velocity'
import type { BatchOutcome } from './batch-queue'
import { DEFAULT_WORKSPACE, deviceKeys } from './blocking-keys'
import { type FacetModel, type FacetName, facets } from './component-model'
import { scoreConfidence } from './confidence'
import { addComeback, noVolatility, readVolatility, type Volatility } from './device-volatility'
import { type Digests, type FingerprintProfile, profileComponents } from './fingerprint-profile'
import { type Candidate, lookAlikeWeights, type Match, matchVisitor } from './match-visitor'
import { networkOf, type Place, placeOf } from './network-of'
import { newRequestId, newVisitorId } from './new-id'
import { newBrowserId, type VisitorToken } from './persistent-token'
import { type BatchContext, type CountChange, countKey, type NewDeviceBudgets } from './population'
import { compareFacets, type Population, type StoredProfile } from './score-evidence'

/** Earlier values kept per changed component, so a device that changes back is still itself. */
const PREVIOUS_VALUES = 2
/**
 * A visit this long after the last one is a comeback, not another page of the same sitting; so is
 * a visit the fingerprint found (the browser's storage is gone: a new sitting whatever the time).
 */
const COMEBACK_MS = 30 * 60_000

export interface IdentifyContext {
  ip: string | null
  userAgent: string | null
  /** The site's workspace (sites.workspace): visitors are found only among its own. */
  workspace?: string
  /** Token from the HttpOnly cookie; preferred over the agent's stored copy. */
  cookieToken?: string
  /** What the identify route saw beside the components (headers, the agent's proof); see detect-bot.ts. */
  evidence?: RequestEvidence
  /** The site's deny list (sites.deny_list): its addresses and ranges raise the ipBlocklist signal. */
  blockedNetworks?: readonly string[]
}

/** One request of a batch, with what its payload says before anything is read. */
export interface PreparedJob {
  input: IdentifyRequest
  context: IdentifyContext
  profile: FingerprintProfile
  keys: string[]
  token: VisitorToken | undefined
  /** The client address looked up once (network-data.ts), and its operator and country for matching. */
  address: AddressInfo | null
  place: Place
}

/** A stored visitor that some request of the batch may be, with its recent activity. */
export interface CandidateRow {
  id: string
  profile: Digests
  parts: Record<string, string>
  previous: Record<string, string[]>
  volatility: unknown
  workspace: string
  /** Whether its values count in the population statistics (see visitors.counted). */
  counted: boolean
  network: string | null
  firstSeenAt: string
  visits: number
  lastSeenAt: string
  velocity: VelocityRow
  /** The batch's requests (by index) this visitor is a candidate for. */
  jobs: number[]
}

/** What a token-holding browser did itself in the request's workspace (its own events; see readBrowsers). */
export interface BrowserState {
  /** The visitor it last was in this workspace. */
  visitorId: string
  /** Its first event as that visitor. */
  since: string
  /** Whether its first visit created that visitor. */
  created: boolean
  /** Its latest visit's components (null if its snapshot is gone: never expected, see component-snapshots.ts). */
  components: Record<string, ComponentResult> | null
  /** Its own recent activity. */
  velocity: VelocityRow
}

/** What the batch read: every request's candidates and what weighs their evidence. */
export interface BatchRead {
  rows: CandidateRow[]
  /** The token-holding browsers' own state, by request index. */
  browsers: Map<number, BrowserState>
  population: Population
  sharers: Map<string, number>
  placeSharers: BatchContext['placeSharers']
  /** New devices counted in the last hour per network and per site (population.ts). */
  newDevices: { network: Map<string, number>; site: Map<string, number> }
  /** Each address's and network's activity over the last day (ipVelocity; population.ts). */
  activity: BatchContext['activity']
  budgets: NewDeviceBudgets
}

export interface WrittenEvent {
  index: number
  /** The event as stored, with every signal (an event read back may lack signals newer than it). */
  event: StoredEvent & { signals: SmartSignals }
  job: PreparedJob
  match: Match
  /** The visitor's profile and blocking keys after this visit (unchanged when it may not move them). */
  profile: FingerprintProfile
  keys: string[]
  previous: Record<string, string[]>
  volatility: Volatility
  /** Whether the visitor's values count in the population statistics. */
  counted: boolean
  /** Whether the visitor was stored when the batch read it (its statistics then move by the change only). */
  stored: boolean
  /** Whether this visit came back after a while or without storage (see COMEBACK_MS). */
  comeback: boolean
  browserId: string
  /** The address's autonomous system and country, where the offline data has them. */
  place: Place
}

export interface BatchDecision {
  /** Requests that must wait for another one of the batch (`blockedBy`); the others come after the write. */
  outcomes: BatchOutcome<IdentifyResponse>[]
  /** Events to store, sorted by visitor ID (the order rows are locked in). */
  written: WrittenEvent[]
  /** Value-count changes, sorted by component then digest (the order rows are locked in). */
  changes: CountChange[]
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
  { rows, browsers, population, sharers, placeSharers, newDevices, activity, budgets }: BatchRead,
  now: Date,
): BatchDecision {
  const outcomes: BatchOutcome<IdentifyResponse>[] = []
  const claimedVisitors = new Set<string>()
  const claimedDevices = new Map<string, string>()
  const stats = new Map<string, CountChange>()
  const written: WrittenEvent[] = []
  // Candidates' addresses recur across the batch's requests: each is looked up once.
  const places = new Map<string, Place>()
  const knownPlaceOf = (ip: string) => {
    const known = places.get(ip) ?? placeOf(ip)
    places.set(ip, known)
    return known
  }
  prepared.forEach((job, index) => {
    const workspace = job.context.workspace ?? DEFAULT_WORKSPACE
    const { address, place } = job
    // Visitors of another workspace are never this request's (a token minted for another site's).
    const mine = rows.filter((row) => row.jobs.includes(index) && row.workspace === workspace)
    const weights = lookAlikeWeights(
      mine.map((row) => ({
        counted: row.counted,
        network: row.network,
        firstSeenAt: Date.parse(row.firstSeenAt),
      })),
      now.getTime(),
    )
    const candidates: Candidate[] = mine.map((row, at) => ({
      visitorId: row.id,
      profile: storedProfile(row),
      lastSeenAt: Date.parse(row.lastSeenAt),
      visits: row.visits,
      recentIps: row.velocity.ips24h,
      lookAlikeWeight: weights[at],
    }))
    const browser = browsers.get(index)
    const match = matchVisitor({
      current: job.profile,
      candidates,
      token: job.token && {
        visitorId: browser?.visitorId ?? job.token.visitorId,
        // Weighed against its own browser's latest fingerprint, not what others made the visitor's.
        profile: browser?.components ? ownProfile(browser.components) : undefined,
      },
      population,
      now: now.getTime(),
      context: {
        ip: job.context.ip,
        sharers: job.context.ip ? (sharers.get(job.context.ip) ?? 0) : 0,
        place,
        placeSharers: {
          asn: place.asn ? (placeSharers.asn.get(place.asn) ?? 0) : 0,
          country: place.country ? (placeSharers.country.get(place.country) ?? 0) : 0,
        },
        placeOf: knownPlaceOf,
      },
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
    // Who moves the visitor's shared profile: a browser without storage the fingerprint found, the
    // browser that created the visitor, or a token's browser with no events of its own (older
    // tokens); never a browser that joined by its fingerprint and now holds a token of its own, so
    // a copied fingerprint cannot walk a victim's record towards the copier's device (SECURITY.md).
    const movesProfile = !stored || match.method !== 'token' || browser === undefined || browser.created
    const profile = stored && !movesProfile ? stored : job.profile
    // A new device counts in the statistics within its network's and site's hourly budgets: beyond
    // them it is identified all the same, but one client cannot shape what matching measures.
    const counted = row ? row.counted : withinBudgets(job, newDevices, budgets)
    if (movesProfile) addStatistics(stats, stored?.digests ?? {}, job.profile.digests, counted)
    // What one device does at its comebacks tells how it will change (device-volatility.ts); page
    // loads within one sitting would teach that nothing ever changes.
    const comeback =
      row !== undefined &&
      (match.method !== 'token' || now.getTime() - Date.parse(row.lastSeenAt) >= COMEBACK_MS)
    const moved = stored && comeback && movesProfile ? changedFacets(job.profile, stored) : undefined
    const volatility =
      stored && moved
        ? addComeback(stored.volatility, moved[0], moved[1], match.probability, moved[2])
        : stored?.volatility
    const confidence = scoreConfidence(match)
    const network = job.context.ip ? networkOf(job.context.ip) : undefined
    const here = { visitorId, linkedId: job.input.linkedId }
    const signals = computeSignals(job.input.components, {
      ip: job.context.ip,
      linkedId: job.input.linkedId,
      visitorId,
      addressActivity: {
        address: job.context.ip ? activity.address.get(job.context.ip) : undefined,
        network: network ? activity.network.get(network) : undefined,
      },
      // A browser that proves itself is measured by its own activity: a copy of its fingerprint
      // replayed elsewhere does not make it look busy. A browser without storage, by its device's.
      velocity: browser?.velocity ?? row?.velocity,
      evidence: job.context.evidence,
      address,
      blockedNetworks: job.context.blockedNetworks,
    })
    // The next request of this batch from the same address sees this one, as after a write.
    if (job.context.ip)
      activity.address.set(job.context.ip, addToActivity(activity.address.get(job.context.ip), here))
    if (network) activity.network.set(network, addToActivity(activity.network.get(network), here))
    const event: WrittenEvent['event'] = {
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
    const previous = stored ? (movesProfile ? followPrevious(stored, job.profile) : stored.previous) : {}
    written.push({
      index,
      event,
      job,
      match,
      profile: { digests: profile.digests, parts: profile.parts },
      keys: deviceKeys(profile.digests, previous, workspace),
      previous,
      volatility: volatility ?? { comebacks: 0, changed: {} },
      counted,
      stored: row !== undefined,
      comeback,
      // The browser keeps its own ID whoever it turns out to be; a browser without one gets a new one.
      browserId: job.token?.browserId ?? newBrowserId(),
      place,
    })
  })

  // Rows are written in a fixed order (visitor ID, key, component), so app servers sharing one
  // PostgreSQL lock them in the same order and never deadlock each other.
  written.sort((a, b) => byText(a.event.visitorId, b.event.visitorId))
  return {
    outcomes,
    written,
    changes: [...stats.values()]
      .filter(({ delta, all }) => delta !== 0 || all !== 0)
      .sort((a, b) => byText(a.component, b.component) || byText(a.digest, b.digest)),
  }
}

export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Whether a new device is within its network's and its site's budgets; counts it if so. */
function withinBudgets(
  job: PreparedJob,
  newDevices: BatchRead['newDevices'],
  budgets: NewDeviceBudgets,
): boolean {
  const network = job.context.ip ? networkOf(job.context.ip) : undefined
  const site = job.input.siteKey
  const networkCount = network ? (newDevices.network.get(network) ?? 0) : 0
  const siteCount = site ? (newDevices.site.get(site) ?? 0) : 0
  if (networkCount >= budgets.network || siteCount >= budgets.site) return false
  if (network) newDevices.network.set(network, networkCount + 1)
  if (site) newDevices.site.set(site, siteCount + 1)
  return true
}

/**
 * Per-visitor value counts move with the visitor's profile: -1 for old values, +1 for new ones,
 * summed over the batch per component value; in the counted statistics only for a visitor that
 * counts (visitors.counted), among all visitors for every one.
 */
function addStatistics(
  totals: Map<string, CountChange>,
  previous: Digests,
  current: Digests,
  counted: boolean,
) {
  const add = (component: string, digest: string, delta: number) => {
    const key = countKey(component, digest)
    const total = totals.get(key) ?? { component, digest, delta: 0, all: 0 }
    if (counted) total.delta += delta
    total.all += delta
    totals.set(key, total)
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

/** A browser's own latest fingerprint, as a stored profile to weigh its token against. */
function ownProfile(components: Record<string, ComponentResult>): StoredProfile {
  return { ...profileComponents(components), previous: {}, volatility: noVolatility }
}

function storedProfile(row: CandidateRow): StoredProfile {
  return {
    digests: row.profile,
    parts: row.parts ?? {},
    previous: row.previous ?? {},
    volatility: readVolatility(row.volatility),
  }
}

/** The earlier values to keep: for each component that changed, its last value first. */
export function followPrevious(stored: StoredProfile, current: FingerprintProfile): Record<string, string[]> {
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

/**
 * The facets of `current` that differ from the stored device's (exact is the only unchanged level);
 * those of them that moved to a value the device had not shown before (not `previous`); and of
 * these, the outings, which may be undone: not a facet whose build moved (an update is never undone).
 */
function changedFacets(
  current: FingerprintProfile,
  stored: StoredProfile,
): [FacetName[], FacetName[], FacetName[]] {
  const changed = compareFacets(current, stored).filter(({ level }) => level !== 'exact')
  const departed = changed.filter(({ level }) => level !== 'previous')
  const updated = ({ facet, members }: (typeof changed)[number]) =>
    members.some(
      (member) =>
        (member.level === 'close' || member.level === 'different') &&
        (facets[facet] as FacetModel).build?.includes(member.name),
    )
  return [
    changed.map(({ facet }) => facet),
    departed.map(({ facet }) => facet),
    departed.filter((entry) => !updated(entry)).map(({ facet }) => facet),
  ]
}
