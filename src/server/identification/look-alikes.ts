// What the look-alikes blocking found for a request say about its population, for scoreEvidence:
// how often another device holds a close value (record linkage's u, estimated on the blocked pairs),
// how many of them have a facet at all, and whether a newer build is spreading among them.
import { type FacetModel, type FacetName, facets } from './component-model'
import type { FingerprintProfile } from './fingerprint-profile'
import type { Direction, FacetComparison, Level, StoredProfile } from './score-evidence'

const facetList = Object.entries(facets) as [FacetName, FacetModel][]

/**
 * For a facet that follows another component (FacetModel.given), the share of the look-alikes
 * holding the request's value of that component whose stored profile has the facet at all. A
 * server that kept visitors before the facet was matched counts the given value for all of them
 * and the facet's values only for those seen since: without this share, every value of the facet
 * would look rarer among them than it is. Leans towards 1 (one pseudo-candidate that has it).
 */
export function coverageAmong(current: FingerprintProfile, lookAlikes: readonly FingerprintProfile[]) {
  // Once per request, for the few facets that follow another component.
  const shares = new Map<FacetName, number>()
  for (const [facet, model] of facetList) {
    const given = model.given
    const digest = given && current.digests[given]
    if (!given || !digest) continue
    let holding = 1
    let covered = 1
    for (const other of lookAlikes) {
      if (other.digests[given] !== digest) continue
      holding++
      if (model.members.some((member) => other.digests[member] !== undefined)) covered++
    }
    shares.set(facet, covered / holding)
  }
  return (facet: FacetName) => shares.get(facet) ?? 1
}

/** How much a facet's prior close chance weighs against what the look-alikes show, in candidates. */
const LOOK_ALIKE_PRIOR = 4

/**
 * How likely another device's value is close to this one without being equal, per facet, learned
 * from the look-alikes blocking found for this request (record linkage estimates its u-probabilities
 * on the blocked pairs): where many other devices hold a close font set or language list, a close
 * one says little. Each candidate is left out of its own estimate; the prior weighs as
 * LOOK_ALIKE_PRIOR candidates.
 */
export function closeRatesAmong(
  comparisons: readonly FacetComparison[][],
  /** The close chance before the look-alikes: measured on the population's pairs, or the model's. */
  prior: (facet: FacetName) => number = (facet) => facets[facet].closeChance,
  /**
   * How much each look-alike counts (1 by default): less for the devices one client just created
   * (lookAlikeWeights), so a flood of near-copies cannot make a device's own changes look common.
   */
  weights: readonly number[] = comparisons.map(() => 1),
) {
  const close = new Map<FacetName, number>()
  /** Of those, the look-alikes close one way and both ways (the others' direction cannot be told). */
  const oneWay = new Map<FacetName, number>()
  const bothWays = new Map<FacetName, number>()
  const compared = new Map<FacetName, number>()
  const add = (counts: Map<FacetName, number>, facet: FacetName, weight: number) =>
    counts.set(facet, (counts.get(facet) ?? 0) + weight)
  comparisons.forEach((comparison, index) => {
    const weight = weights[index] ?? 1
    for (const { facet, level, direction } of comparison) {
      add(compared, facet, weight)
      if (level !== 'close') continue
      add(close, facet, weight)
      if (direction) add(direction === 'one way' ? oneWay : bothWays, facet, weight)
    }
  })
  // For one candidate, by its weight: a facet it compared at `level` (which leaves it out). A close
  // set whose direction is told is weighed against the look-alikes close that way, and those whose
  // direction cannot be told (either, for all that is known); the prior, worth LOOK_ALIKE_PRIOR
  // candidates, takes each direction as common as any close value.
  return (ownWeight = 1) =>
    (facet: FacetName, level?: Level, direction?: Direction) => {
      const own = level === 'close' ? ownWeight : 0
      const others = Math.max((compared.get(facet) ?? 0) - (level !== undefined ? ownWeight : 0), 0)
      const anyClose = close.get(facet) ?? 0
      const otherWay = direction && (direction === 'one way' ? bothWays : oneWay).get(facet)
      const closeThatWay = Math.max(anyClose - (level === 'close' ? (otherWay ?? 0) : 0) - own, 0)
      return (closeThatWay + LOOK_ALIKE_PRIOR * prior(facet)) / (others + LOOK_ALIKE_PRIOR)
    }
}

/** The facet whose changes come on the vendor's schedule, and the members that name its build. */
const scheduledFacet = facetList.find(([, model]) => model.scheduled && model.build)

/**
 * For each candidate, how likely it is to show the request's build by now, from the look-alikes
 * seen since it was last seen: of those running the request's browser (its build members exact or
 * close), the share that updated from the candidate's build to the request's (they hold the
 * request's, and their record keeps the candidate's as one they left). Builds come out for every
 * device of a browser at once, so where most devices seen since made that very move, a device seen
 * before it came out has likely made it too; where none was seen since, the facet's change rate
 * says. Only that move counts, as builds move forward: it says the request's build is the newer one,
 * where devices seen on a build all along (not yet updated, or arrived on it) do not, and a
 * look-alike whose record left the request's build (compared `previous`) has moved past it. The
 * prior (the change rate) weighs as LOOK_ALIKE_PRIOR look-alikes; each look-alike by its weight.
 */
export function updatesSince(
  comparisons: readonly FacetComparison[][],
  /** Each look-alike's last visit (ms) and stored record (its values and the earlier ones it keeps). */
  lookAlikes: readonly { lastSeenAt: number; profile: Pick<StoredProfile, 'digests' | 'previous'> }[],
  /** The facet's change rate before the look-alikes seen since say anything. */
  changeRate: (facet: FacetName) => number,
  weights: readonly number[] = comparisons.map(() => 1),
): number[] {
  if (!scheduledFacet) return comparisons.map(() => 0)
  const [facet, model] = scheduledFacet
  const prior = changeRate(facet)
  const build = new Set<string>(model.build)
  /** A look-alike's build members, if it runs the request's browser on the request's build or a close one. */
  const running = comparisons.map((comparison) => {
    const members = comparison.find((entry) => entry.facet === facet)?.members ?? []
    const named = members.filter((member) => build.has(member.name))
    const usable =
      named.length > 0 && named.every((member) => member.level === 'exact' || member.level === 'close')
    return usable ? named : undefined
  })
  return lookAlikes.map((candidate, index) => {
    let seen = 0
    let moved = 0
    running.forEach((named, other) => {
      const lookAlike = lookAlikes[other]
      if (!named || !lookAlike || other === index || !(lookAlike.lastSeenAt > candidate.lastSeenAt)) return
      const weight = weights[other] ?? 1
      if (!(weight > 0)) return
      seen += weight
      const onRequestBuild = named.every((member) => member.level === 'exact')
      const leftCandidateBuild = named.some((member) => {
        const left = candidate.profile.digests[member.name]
        return left !== undefined && (lookAlike.profile.previous[member.name] ?? []).includes(left)
      })
      if (onRequestBuild && leftCandidateBuild) moved += weight
    })
    const share = (moved + LOOK_ALIKE_PRIOR * prior) / (seen + LOOK_ALIKE_PRIOR)
    return Number.isFinite(share) ? share : prior
  })
}

/**
 * Where devices of the request's kind were seen going: for each candidate, per facet where the
 * request shows a value the candidate has not (close or different), the look-alikes that left the
 * candidate's value (their record keeps it as an earlier one) and, of those, the ones that hold the
 * request's value now. A change lands where changes go: the destinations people pick (a trip's
 * city, a display scale, the font an update installs) are not spread as values are among devices,
 * and a device of its kind seen making that very move says the request's value is one of them
 * (MODEL.md, "Weights"). Returns, per candidate, the share of a change landing on the request's
 * value: (moved + K·landing) / (left + K), the landing the value's share says worth
 * LOOK_ALIKE_PRIOR look-alikes. Each look-alike by its weight (a candidate's own record never holds
 * its value as an earlier one). Not for the browser's build, whose moves updatesSince counts.
 */
export function movesSeen(
  comparisons: readonly FacetComparison[][],
  lookAlikes: readonly { profile: Pick<StoredProfile, 'digests' | 'previous'> }[],
  weights: readonly number[] = comparisons.map(() => 1),
): ((facet: FacetName, landing: number) => number)[] {
  // Once per request: which look-alikes left each value (hold it among their earlier ones).
  const leftBy = new Map<string, Map<string, number[]>>()
  lookAlikes.forEach((lookAlike, at) => {
    if (!((weights[at] ?? 1) > 0)) return
    for (const [name, values] of Object.entries(lookAlike.profile.previous)) {
      const byValue = leftBy.get(name) ?? new Map<string, number[]>()
      leftBy.set(name, byValue)
      for (const value of values) {
        const leavers = byValue.get(value)
        if (leavers) leavers.push(at)
        else byValue.set(value, [at])
      }
    }
  })
  const levelOf = (at: number, facet: FacetName) =>
    comparisons[at]?.find((entry) => entry.facet === facet)?.level
  return comparisons.map((comparison, index) => {
    const seen = new Map<FacetName, { left: number; moved: number }>()
    const candidate = lookAlikes[index]
    for (const { facet, level, members } of comparison) {
      if (!candidate || (level !== 'close' && level !== 'different')) continue
      if ((facets[facet] as FacetModel).scheduled) continue
      // The candidate's values of the members the request does not share, and who left them all.
      let leaving: number[] | undefined
      for (const member of members) {
        const value = candidate.profile.digests[member.name]
        if (member.level === 'exact' || value === undefined) continue
        const left = leftBy.get(member.name)?.get(value) ?? []
        leaving = leaving ? leaving.filter((at) => left.includes(at)) : left
      }
      let left = 0
      let moved = 0
      for (const at of leaving ?? []) {
        const weight = weights[at] ?? 1
        left += weight
        if (levelOf(at, facet) === 'exact') moved += weight
      }
      if (left > 0) seen.set(facet, { left, moved })
    }
    return (facet: FacetName, landing: number) => {
      const moves = seen.get(facet)
      return moves ? (moves.moved + LOOK_ALIKE_PRIOR * landing) / (moves.left + LOOK_ALIKE_PRIOR) : landing
    }
  })
}
