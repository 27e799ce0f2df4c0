import type { FingerprintProfile } from './fingerprint-profile'
import {
  closeRatesAmong,
  compareFacets,
  coverageAmong,
  type Evidence,
  type Population,
  type StoredProfile,
  scoreEvidence,
} from './score-evidence'

export interface Candidate {
  visitorId: string
  profile: StoredProfile
  /** Milliseconds since the epoch. */
  lastSeenAt: number
  visits: number
  /** Addresses this visitor was seen on over the last day. */
  recentIps: string[]
}

export interface MatchContext {
  ip: string | null
  /** Distinct visitors seen on `ip` over the last day (an office NAT or a proxy: many). */
  sharers: number
}

/** The evidence behind a decision, as stored with the event and shown to the visitor. */
export interface MatchEvidence extends Evidence {
  /** Bits the client address added (the same address or network seen recently for this visitor). */
  contextBits: number
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
/** Candidates within this many bits of the best are the same device stored twice (a lost token). */
const TIE_BITS = 1
/** A signed token is honoured unless the fingerprint says, this strongly, that it is another device. */
export const TOKEN_MIN_BITS = -12
/** The client address is weak evidence: it can lift a candidate by a few bits at most. */
const ADDRESS_BITS = 6
const NETWORK_BITS = 3
/**
 * The same address also tells a device from its twin, by at most this much: one device comes back
 * from the address it used within a day about eight times in ten; another machine of its kind sits
 * on that very address about one time in ten (a household, an office behind one NAT).
 */
const TWIN_ADDRESS_BITS = 3

/** The /24 of an IPv4 address or the /56 of an IPv6 one. */
export function networkOf(ip: string): string {
  if (ip.includes(':')) {
    const groups = ip.split('::')[0]?.split(':') ?? []
    return `${groups.slice(0, 3).join(':')}:${(groups[3] ?? '0').padStart(4, '0').slice(0, 2)}`
  }
  return ip.split('.').slice(0, 3).join('.')
}

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

/**
 * Evidence from the address for "this device" over "its twin": only the very address seen
 * recently for this visitor counts (an office puts a fleet of identical machines in one network).
 */
export function twinAddressBits(context: MatchContext, candidate: Candidate, population: number): number {
  const { ip } = context
  if (!ip || !candidate.recentIps.includes(ip)) return 0
  return Math.min(TWIN_ADDRESS_BITS, addressRarity(context, population))
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
 * bits against a prior of one returning device among the population.
 */
export function matchVisitor({
  current,
  candidates,
  tokenVisitorId,
  population,
  context,
}: {
  current: FingerprintProfile
  candidates: Candidate[]
  tokenVisitorId?: string
  population: Population
  context: MatchContext
}): Match {
  const size = Math.max(population.visitors, MIN_POPULATION)
  const comparisons = candidates.map((candidate) => compareFacets(current, candidate.profile))
  const closeRates = closeRatesAmong(comparisons)
  const coverage = coverageAmong(
    current,
    candidates.map((candidate) => candidate.profile),
  )
  const scored = candidates.map((candidate, index) => {
    const compared = comparisons[index] ?? []
    const lookAlikes = { closeChance: closeRates(compared), coverage }
    const fingerprint = scoreEvidence(current, candidate.profile, population, lookAlikes, compared)
    // The address only supports what the fingerprint already suggests.
    const contextBits = fingerprint.bits > 0 ? addressBits(context, candidate, size) : 0
    const twinBits = fingerprint.twinBits + twinAddressBits(context, candidate, size)
    const evidence = { ...fingerprint, twinBits, contextBits }
    return { candidate, evidence, total: fingerprint.bits + contextBits }
  })

  const fromToken = tokenVisitorId
    ? scored.find((entry) => entry.candidate.visitorId === tokenVisitorId)
    : undefined
  if (fromToken && fromToken.evidence.bits >= TOKEN_MIN_BITS) {
    return {
      method: 'token',
      visitorId: tokenVisitorId as string,
      probability: fromToken.evidence.bits >= 0 ? 0.99 : 0.95,
      evidence: fromToken.evidence,
    }
  }

  // A candidate whose differences from this fingerprint look like a twin's (a machine of the same
  // kind set up otherwise) rather than like one device's changes is not this device: it takes no
  // part in the decision, and this request may still be another candidate (that twin) or new.
  const plausible = scored.filter((entry) => entry.evidence.bits > 0 && entry.evidence.twinBits >= 0)
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
