import type { MatchEvidence } from '@/contracts/device'
import { type FacetName, facets } from './component-model'
import type { FingerprintProfile } from './fingerprint-profile'
import { closeRatesAmong, coverageAmong, movesSeen, updatesSince } from './look-alikes'
import { networkOf, type Place } from './network-of'
import { recencyBits } from './recency'
import {
  compareFacets,
  levelHolds,
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
  /** The operator (autonomous system) and country of `ip`, and the distinct visitors of each over the last day (sampled). */
  place?: Place
  placeSharers?: { asn: number; country: number }
  /** Where a candidate's address is (network-of.ts placeOf); asked only when it can count. */
  placeOf?: (ip: string) => Place
}

export type Match =
  | { method: 'token' | 'fingerprint'; visitorId: string; probability: number; evidence: MatchEvidence }
  | { method: 'new'; probability: number; evidence?: MatchEvidence }

/** Evidence as stored: the rarity it was weighed with is matching's own. */
const withoutRarity = ({ rarity: _, machine: __, ...evidence }: ReturnType<typeof scoreEvidence>) => evidence

/** A returning device is any of the stored visitors, at least this many even on a fresh server. */
const MIN_POPULATION = 100
/** A fingerprint match needs the stored device to be more probable than every other explanation together. */
const MATCH_PROBABILITY = 0.5
/** Before any evidence, half the requests come from returning devices (a documented default, MODEL.md). */
const RETURNING = 0.5
/**
 * Of the new devices, the share that are the twin of a stored one: two in five (many devices are
 * one of a kind: a phone model left as it came, a fleet set up from one image). A documented
 * default: measured on stored look-alikes it fed on the model's own misses (MODEL.md).
 */
const TWIN_SHARE = 0.4
/** Candidates within this many bits of the best are the same device stored twice (a lost token). */
const TIE_BITS = 1
/** A signed token is honoured unless the fingerprint says, this strongly, that it is another device. */
export const TOKEN_MIN_BITS = -12
/** The client address is weak evidence: it can lift a candidate by a few bits at most. */
const ADDRESS_BITS = 6
const NETWORK_BITS = 3
/** An autonomous system (one operator's network: a carrier, an ISP) is weaker still, a country weakest. */
const OPERATOR_BITS = 2
const COUNTRY_BITS = 1
/**
 * Evidence from the client address: seen recently for this visitor, it adds bits in proportion
 * to how few visitors share it; never enough on its own (see matchVisitor). Failing the address
 * and its /24, the operator's network (its autonomous system), then the country, count the same
 * way: a phone that moved between two of its carrier's addresses is likelier the same device than
 * one that came from another operator, by as much as that operator's share of the day's visitors is
 * small, and one from the same country than one from across the world.
 */
export function addressBits(context: MatchContext, candidate: Candidate, population: number): number {
  const { ip } = context
  if (!ip || candidate.recentIps.length === 0) return 0
  const rarity = addressRarity(context.sharers, population)
  if (candidate.recentIps.includes(ip)) return Math.min(ADDRESS_BITS, rarity)
  const network = networkOf(ip)
  if (candidate.recentIps.some((seen) => networkOf(seen) === network))
    return Math.min(NETWORK_BITS, rarity / 2)
  const { place, placeOf } = context
  if (!place || !placeOf || (!place.asn && !place.country)) return 0
  // A bounded number of the candidate's addresses are looked up, whatever it has been given.
  const seen = candidate.recentIps.slice(0, PLACES_PER_CANDIDATE)
  if (place.asn && seen.some((other) => placeOf(other).asn === place.asn))
    return Math.min(OPERATOR_BITS, addressRarity(context.placeSharers?.asn ?? 0, population))
  if (place.country && seen.some((other) => placeOf(other).country === place.country))
    return Math.min(COUNTRY_BITS, addressRarity(context.placeSharers?.country ?? 0, population))
  return 0
}

/** Addresses of one candidate looked up for its operator and country. */
const PLACES_PER_CANDIDATE = 16

/**
 * The independence estimate of how rare a candidate's agreeing values are together weighs as this
 * many stored visitors against the look-alikes that hold them all: a documented default, as much as
 * a learned change rate's prior (MODEL.md; on the replay, 50 merged 10% and 800 gained little).
 */
const JOINT_PRIOR_VISITORS = 200
/**
 * And as at least this many holders of them (its share times the visitors it is worth): how many of
 * the N look-alikes hold the combination is a count whose mean independence gives (N·2^-rarity), so
 * reading none tells something only where independence expected some. Worth K visitors alone, the
 * estimate took log2(1 + N / K) bits from reading none however rare the combination: 4 bits among
 * 3 000 visitors for values one device in a million holds (MODEL.md, "Joint agreement").
 */
const JOINT_PRIOR_HOLDERS = 1

/** Which facets a stored device holds the request's value of (levelHolds), as bits of a number. */
const facetBit = new Map(Object.keys(facets).map((facet, index) => [facet, 2 ** index]))
/** The facets the machine sets (FacetModel.machine), as bits of a number. */
const machineMask = Object.entries(facets).reduce(
  (mask, [facet, model]) => ('machine' in model ? mask | (facetBit.get(facet) ?? 0) : mask),
  0,
)

/**
 * How rare the machine's values are together, in bits, when `holders` of the look-alikes hold them
 * all: their share (holders + K·2^-rarity) / (N + K), the independence estimate worth K stored
 * visitors however few holders that is. One machine's values are known to come together, so its
 * look-alikes holding them all may say they are far commoner than independence does; the joint
 * agreement's prior, worth at least one holder, would not let them (jointAgreement).
 */
const rarityAmong = (holders: number, rarity: number, visitors: number) =>
  -Math.log2((holders + JOINT_PRIOR_VISITORS * 2 ** -rarity) / (Math.max(visitors, 0) + JOINT_PRIOR_VISITORS))

type Agreements = readonly { facet: FacetName; level: string }[]
const maskOf = (list: Agreements) =>
  list.reduce((mask, { facet, level }) => (levelHolds(level) ? mask | (facetBit.get(facet) ?? 0) : mask), 0)

/**
 * The values the machine sets, taken together (MODEL.md, "The machine's values together"), for
 * every candidate at once: bits to add to the candidate's, never more than none. Its GPU, audio, fonts and voices as
 * it came are one machine's, so each agreement weighed by its own commonness counts the same machine
 * several times: among the look-alikes, those holding every one of those values are where the other
 * machines of its kind are, and their share (rarityAmong) is how rare the values are together. Every
 * look-alike read counts as one: this only takes bits away (a flood of devices on one machine can
 * make its values together count no more than the rarest of them alone, and merges none), and an
 * office's devices beyond its network's budget are still machines of their kind. Never commoner
 * than the rarest of the values alone.
 */
export function machineAgreement(
  evidence: readonly { facets: Agreements; machine: { rarity: number; rarest: number } }[],
  comparisons: readonly Agreements[],
  visitors: number,
): number[] {
  const held = comparisons.map(maskOf)
  return evidence.map((own, index) => {
    const machine = maskOf(own.facets) & machineMask
    const { rarity, rarest } = own.machine
    if (machine === 0 || rarity <= 0) return 0
    let holders = 0
    held.forEach((mask, other) => {
      if (other !== index && (mask & machine) === machine) holders++
    })
    return Math.min(0, Math.max(rarest, rarityAmong(holders, rarity, visitors)) - rarity)
  })
}

/**
 * Evidence from the values that agree taken together (MODEL.md, "Joint agreement"), for every
 * candidate at once (a value the candidate showed before agrees too). Each facet's agreement is
 * weighed by its own commonness, as if facets were independent (the machine's counted together,
 * machineAgreement): together, the values agreeing with a candidate would be held by 2^-rarity of
 * the stored visitors, N·2^-rarity of them expected. The look-alikes blocking found are where those
 * visitors would be. When fewer of them (each by its weight) hold all those values than expected,
 * and some look-alike that does not was read too (so those that do were not cut off), the
 * combination's share is estimated as (holders + a) / (N + a·2^rarity), the independence estimate
 * worth a = max(1, K·2^-rarity) holders: rarer than independence says, by up to log2(1 + N / K)
 * bits, and by next to nothing when independence expected nobody else to hold them anyway.
 * Never fewer bits than independence: a look-alike holding them all may be this very device stored
 * twice (a token lost before), which must not count as another.
 */
export function jointAgreement(
  evidence: readonly { facets: Agreements; rarity: number }[],
  comparisons: readonly Agreements[],
  weights: readonly number[],
  visitors: number,
): number[] {
  const held = comparisons.map(maskOf)
  return evidence.map((own, index) => {
    if (own.rarity <= 0) return 0
    const agreeing = maskOf(own.facets)
    let holders = 0
    let cutOff = comparisons.length > 1
    held.forEach((mask, other) => {
      if (other === index) return
      if ((mask & agreeing) === agreeing) holders += weights[other] ?? 1
      else cutOff = false
    })
    if (cutOff) return 0
    // Against independence's share 2^-rarity: (expected + prior) / (holders + prior), in bits.
    const share = 2 ** -own.rarity
    const prior = Math.max(JOINT_PRIOR_HOLDERS, JOINT_PRIOR_VISITORS * share)
    return Math.max(0, Math.log2((Math.max(visitors, 0) * share + prior) / (holders + prior)))
  })
}

/**
 * The values that agree taken together, for every candidate: the machine's part
 * (machineAgreement) and the joint agreement with the machine's values counted so
 * (jointAgreement). A candidate's bits gain both.
 */
export function agreementTogether(
  evidence: readonly { facets: Agreements; rarity: number; machine: { rarity: number; rarest: number } }[],
  comparisons: readonly Agreements[],
  weights: readonly number[],
  visitors: number,
) {
  const machine = machineAgreement(evidence, comparisons, visitors)
  const joint = jointAgreement(
    evidence.map((own, index) => ({ ...own, rarity: own.rarity + (machine[index] ?? 0) })),
    comparisons,
    weights,
    visitors,
  )
  return { machine, joint }
}

/**
 * How telling a shared address or network is, in bits: log2(m / u), where m = 1/2 is the chance
 * that a returning device is seen on one it used lately (a documented default, MODEL.md) and u the
 * share of the population's visitors seen on it over the day (itself not counted).
 */
function addressRarity(sharers: number, population: number): number {
  const others = Math.max(sharers - 1, 0.5)
  return Math.max(0, Math.log2((0.5 * population) / others))
}

/**
 * The population as one request weighs it: every candidate is compared with the same request's
 * values, so each value's count is looked up once, not once per candidate and facet.
 */
function countedOnce(population: Population): Population {
  const once = (count: (component: string, digest: string) => number) => {
    const counts = new Map<string, Map<string, number>>()
    return (component: string, digest: string) => {
      let byDigest = counts.get(component)
      if (!byDigest) {
        byDigest = new Map()
        counts.set(component, byDigest)
      }
      const known = byDigest.get(digest)
      if (known !== undefined) return known
      const value = count(component, digest)
      byDigest.set(digest, value)
      return value
    }
  }
  const countAll = population.countAll?.bind(population)
  return {
    ...population,
    count: once((component, digest) => population.count(component, digest)),
    countAll: countAll && once(countAll),
  }
}

/**
 * Decides which visitor a fingerprint belongs to: the signed token's visitor while the
 * fingerprint does not contradict it; otherwise the posterior over three kinds of explanation
 * (MODEL.md): a stored candidate came back, a new twin of one arrived, or a new device unlike any.
 * The most probable candidate is the answer when its posterior is at least one half.
 */
export function matchVisitor({
  current,
  candidates,
  token,
  population: measured,
  context,
  now = Date.now(),
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
  /** Milliseconds since the epoch: what a candidate's last visit is measured from. */
  now?: number
}): Match {
  const population = countedOnce(measured)
  const size = Math.max(population.visitors, MIN_POPULATION)
  const comparisons = candidates.map((candidate) => compareFacets(current, candidate.profile))
  const weights = candidates.map((candidate) => candidate.lookAlikeWeight ?? 1)
  const closeRates = closeRatesAmong(comparisons, (facet) => population.closeChance(facet), weights)
  const coverage = coverageAmong(
    current,
    candidates.map((candidate) => candidate.profile),
  )
  const updates = updatesSince(comparisons, candidates, (facet) => population.rates(facet).change, weights)
  const moves = movesSeen(comparisons, candidates, weights)
  const fingerprints = candidates.map((candidate, index) => {
    const compared = comparisons[index] ?? []
    const lookAlikes = {
      closeChance: closeRates(weights[index]),
      coverage,
      updated: updates[index],
      moves: moves[index],
    }
    return scoreEvidence(current, candidate.profile, population, lookAlikes, compared)
  })
  // The agreeing values together: the machine's as common as its look-alikes show, and all of
  // them rarer than each alone says when no look-alike holds them all.
  const { machine: machines, joint } = agreementTogether(
    fingerprints,
    comparisons,
    weights,
    population.visitors,
  )
  const joints = joint.map((bits, index) => bits + (machines[index] ?? 0))
  const scored = candidates.map((candidate, index) => {
    const scoredFingerprint = withoutRarity(fingerprints[index] as (typeof fingerprints)[number])
    const joint = joints[index] ?? 0
    const fingerprint = { ...scoredFingerprint, bits: scoredFingerprint.bits + joint }
    // The address only supports what the fingerprint already suggests.
    const contextBits = fingerprint.bits > 0 ? addressBits(context, candidate, size) : 0
    // When it was last seen speaks for the device or a twin of it (twins arrive together: a fleet,
    // an office), against a new device unlike any: it never tells the device from its twin.
    const recency = recencyBits(now - candidate.lastSeenAt, population.lastSeen, population.returnGaps)
    const evidence = { ...fingerprint, jointBits: joint, contextBits, recencyBits: recency }
    return { candidate, evidence, total: fingerprint.bits + contextBits + recency }
  })

  const tokenAt = token ? scored.findIndex((entry) => entry.candidate.visitorId === token.visitorId) : -1
  const fromToken = scored[tokenAt]
  if (token && fromToken) {
    // Weighed without what its look-alikes say of its machine (machineAgreement counts every one
    // read) and its agreements on the counted statistics alone (not every stored visitor's:
    // Population.countAll; the joint agreement, never negative, as the request's look-alikes show):
    // other devices, however many, do not make a browser's own token look contradicted.
    const counted = { ...population, countAll: undefined, allVisitors: undefined }
    // A newer build as likely as the look-alikes seen since say (updatesSince), as in the posterior.
    const updated = updates[tokenAt]
    const own = token.profile
      ? withoutRarity(scoreEvidence(current, token.profile, counted, { updated }))
      : {
          ...fromToken.evidence,
          bits:
            withoutRarity(
              scoreEvidence(
                current,
                fromToken.candidate.profile,
                counted,
                { closeChance: closeRates(weights[tokenAt]), coverage, updated },
                comparisons[tokenAt],
              ),
            ).bits + (joint[tokenAt] ?? 0),
        }
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

  // Three kinds of explanation, weighed against "a new device unlike any" (prior (1 − R)(1 − T)):
  // candidate c came back (prior R / N) or a new twin of c arrived (prior (1 − R)·T / N). A twin
  // shares the candidate's values where twins agree: its weight is the candidate's less the twin
  // bits (which never count the address: an office puts a fleet behind one).
  const unrelated = (1 - RETURNING) * (1 - TWIN_SHARE)
  const weigh = (bits: number) => 2 ** Math.min(bits, 200)
  // A candidate whose evidence is not a number (never expected: every likelihood is floored) takes no part.
  const finite = scored.filter(
    (entry) => Number.isFinite(entry.total) && Number.isFinite(entry.evidence.twinBits),
  )
  const weighed = finite.map((entry) => ({
    ...entry,
    same: (RETURNING / size) * weigh(entry.total),
    twin: (((1 - RETURNING) * TWIN_SHARE) / size) * weigh(entry.total - entry.evidence.twinBits),
  }))
  const total = weighed.reduce((sum, entry) => sum + entry.same + entry.twin, unrelated)
  const best = weighed.reduce<(typeof weighed)[number] | undefined>(
    (top, entry) => (!top || entry.same > top.same ? entry : top),
    undefined,
  )
  const newProbability = (total - weighed.reduce((sum, entry) => sum + entry.same, 0)) / total
  if (!best) return { method: 'new', probability: newProbability }
  // The same device stored twice (a lost token): records within TIE_BITS of the best, each more
  // probably this device than a new twin of it, share the device's probability.
  const tied = weighed.filter((entry) => entry.same >= entry.twin && best.total - entry.total < TIE_BITS)
  const probability = tied.reduce((sum, entry) => sum + entry.same, 0) / total
  if (tied.length === 0 || !(probability >= MATCH_PROBABILITY))
    return { method: 'new', probability: newProbability, evidence: best.evidence }
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
