import type { MatchEvidence } from '@/contracts/device'
import type { FingerprintProfile } from './fingerprint-profile'
import { networkOf } from './network-of'
import {
  closeRatesAmong,
  compareFacets,
  coverageAmong,
  type Population,
  type StoredProfile,
  scoreEvidence,
} from './score-evidence'

export type { MatchEvidence } from '@/contracts/device'

export interface Candidate {
  visitorId: string
  profile: StoredProfile
  /** Milliseconds since the epoch. */
  lastSeenAt: number
  visits: number
  /** Addresses this visitor was seen on over the last day. */
  recentIps: string[]
  /** How much it counts among the request's look-alikes (lookAlikeWeights); 1 when not given. */
  lookAlikeWeight?: number
}

/** A look-alike created within this long counts with the others its network created meanwhile. */
const RECENT_MS = 86_400_000

/**
 * How much each candidate counts in the look-alike estimates: nothing when it is not counted in
 * the statistics (beyond its network's budget), and the devices one network created within a
 * day share one vote, so one client's flood of near-copies weighs as one device.
 */
export function lookAlikeWeights(
  candidates: readonly { counted: boolean; network: string | null; firstSeenAt: number }[],
  now: number,
): number[] {
  const recent = (candidate: (typeof candidates)[number]) =>
    candidate.network !== null && now - candidate.firstSeenAt < RECENT_MS
  const perNetwork = new Map<string, number>()
  for (const candidate of candidates)
    if (candidate.counted && recent(candidate))
      perNetwork.set(candidate.network ?? '', (perNetwork.get(candidate.network ?? '') ?? 0) + 1)
  return candidates.map((candidate) =>
    !candidate.counted ? 0 : recent(candidate) ? 1 / (perNetwork.get(candidate.network ?? '') ?? 1) : 1,
  )
}

export interface MatchContext {
  ip: string | null
  /** Distinct visitors seen on `ip` over the last day (an office NAT or a proxy: many). */
  sharers: number
}

export type Match =
  | { method: 'token' | 'fingerprint'; visitorId: string; probability: number; evidence: MatchEvidence }
  | { method: 'new'; probability: number; evidence?: MatchEvidence }

/**
 * Before any evidence, a request is as likely to come from a returning device as from a new one,
 * and a returning device is any of the stored visitors, at least this many even on a fresh server.
 */
const MIN_POPULATION = 100
/** A fingerprint match needs the candidate to be more likely than "a new device". */
const MATCH_PROBABILITY = 0.5
/**
 * Of the new devices, the share that are the twin of a stored one: two in five (many devices are
 * one of a kind: a phone model left as it came, a fleet set up from one image). With returning and
 * new devices equally likely before any evidence, "this device came back" starts 1 / TWIN_SHARE
 * times likelier than "a new twin of it arrived": log2 of that, in bits.
 */
const TWIN_SHARE = 0.4
const TWIN_PRIOR_BITS = Math.log2(1 / TWIN_SHARE)
/** Candidates within this many bits of the best are the same device stored twice (a lost token). */
const TIE_BITS = 1
/** A signed token is honoured unless the fingerprint says, this strongly, that it is another device. */
export const TOKEN_MIN_BITS = -12
/** The client address is weak evidence: it can lift a candidate by a few bits at most. */
const ADDRESS_BITS = 6
const NETWORK_BITS = 3
/**
 * Evidence from the client address: seen recently for this visitor, it adds bits in proportion
 * to how few visitors share it; never enough on its own (see matchVisitor).
 */
export function addressBits(context: MatchContext, candidate: Candidate, population: number): number {
  const { ip } = context
  if (!ip || candidate.recentIps.length === 0) return 0
  const rarity = addressRarity(context, population)
  if (candidate.recentIps.includes(ip)) return Math.min(ADDRESS_BITS, rarity)
  const network = networkOf(ip)
  return candidate.recentIps.some((seen) => networkOf(seen) === network)
    ? Math.min(NETWORK_BITS, rarity / 2)
    : 0
}

/** How telling an address is: in bits, by how few of the population's visitors share it. */
function addressRarity(context: MatchContext, population: number): number {
  const others = Math.max(context.sharers - 1, 0.5)
  return Math.max(0, Math.log2((0.5 * population) / others))
}

/**
 * Decides which visitor a fingerprint belongs to: the signed token's visitor while the
 * fingerprint does not contradict it, otherwise the most probable candidate when it is more
 * probable than a new device, otherwise a new visitor. Probabilities come from the evidence in
 * bits against a prior of one returning device among the population (MODEL.md).
 */
export function matchVisitor({
  current,
  candidates,
  token,
  population,
  context,
}: {
  current: FingerprintProfile
  candidates: Candidate[]
  /**
   * The signed token's visitor, and the fingerprint its own browser last showed: the token is
   * weighed against that one, so no other browser's visits can make it look contradicted.
   */
  token?: { visitorId: string; profile?: StoredProfile }
  population: Population
  context: MatchContext
}): Match {
  const size = Math.max(population.visitors, MIN_POPULATION)
  const comparisons = candidates.map((candidate) => compareFacets(current, candidate.profile))
  const weights = candidates.map((candidate) => candidate.lookAlikeWeight ?? 1)
  const closeRates = closeRatesAmong(comparisons, (facet) => population.closeChance(facet), weights)
  const coverage = coverageAmong(
    current,
    candidates.map((candidate) => candidate.profile),
  )
  const scored = candidates.map((candidate, index) => {
    const compared = comparisons[index] ?? []
    const lookAlikes = { closeChance: closeRates(compared, weights[index]), coverage }
    const fingerprint = scoreEvidence(current, candidate.profile, population, lookAlikes, compared)
    // The address only supports what the fingerprint already suggests.
    const contextBits = fingerprint.bits > 0 ? addressBits(context, candidate, size) : 0
    const evidence = { ...fingerprint, contextBits }
    return { candidate, evidence, total: fingerprint.bits + contextBits }
  })

  const fromToken = token && scored.find((entry) => entry.candidate.visitorId === token.visitorId)
  if (token && fromToken) {
    const own = token.profile ? scoreEvidence(current, token.profile, population) : fromToken.evidence
    if (own.bits >= TOKEN_MIN_BITS) {
      const evidence = { ...own, contextBits: 0 }
      return {
        method: 'token',
        visitorId: token.visitorId,
        probability: own.bits >= 0 ? 0.99 : 0.95,
        evidence,
      }
    }
  }

  // A candidate whose differences from this fingerprint look like a twin's (a machine of the same
  // kind set up otherwise) rather than like one device's changes is not this device: it takes no
  // part in the decision, and this request may still be another candidate (that twin) or new.
  // The twin bits are a likelihood ratio: they exclude the candidate only when they outweigh the
  // prior odds of "this device came back" over "a new twin of it arrived".
  // The address never counts here (an office puts a fleet of identical machines behind one).
  const plausible = scored.filter(
    (entry) => entry.evidence.bits > 0 && entry.evidence.twinBits >= -TWIN_PRIOR_BITS,
  )
  const priorBits = -Math.log2(size)
  const likelihood = (total: number) => 2 ** Math.min(total + priorBits, 60)
  const sum = plausible.reduce((total, entry) => total + likelihood(entry.total), 0)
  const best = plausible.reduce<(typeof plausible)[number] | undefined>(
    (top, entry) => (!top || entry.total > top.total ? entry : top),
    undefined,
  )
  if (!best) return { method: 'new', probability: 1 / (1 + sum), evidence: closest(scored)?.evidence }
  const tied = plausible.filter((entry) => best.total - entry.total < TIE_BITS)
  const probability = tied.reduce((total, entry) => total + likelihood(entry.total), 0) / (1 + sum)
  if (probability < MATCH_PROBABILITY) {
    return { method: 'new', probability: 1 / (1 + sum), evidence: best.evidence }
  }
  // The same device stored twice: the visitor with the longer history keeps the device.
  const chosen = tied.reduce((kept, entry) =>
    entry.candidate.visits > kept.candidate.visits ||
    (entry.candidate.visits === kept.candidate.visits &&
      entry.candidate.lastSeenAt > kept.candidate.lastSeenAt)
      ? entry
      : kept,
  )
  return {
    method: 'fingerprint',
    visitorId: chosen.candidate.visitorId,
    probability,
    evidence: chosen.evidence,
  }
}

/** The candidate with the most evidence, plausible or not: what a new visitor's answer explains. */
function closest<T extends { total: number }>(scored: T[]): T | undefined {
  return scored.reduce<T | undefined>(
    (top, entry) => (!top || entry.total > top.total ? entry : top),
    undefined,
  )
}
