import type { SourceName } from '@/agent/sources'
import type { Level } from '@/contracts/device'
import { editedSets, type FacetModel, type FacetName, facets, knownMembers } from './component-model'
import { type ChangeRates, deviceRates, type Volatility } from './device-volatility'
import { compareParts, type FingerprintProfile, MAX_PARTS, PART_WIDTH } from './fingerprint-profile'

export type { Level } from '@/contracts/device'

/**
 * A stored visitor's profile: the latest fingerprint, recent earlier digests of what changed, and
 * what the device has been seen doing (its own change rates).
 */
export interface StoredProfile extends FingerprintProfile {
  previous: Record<string, string[]>
  volatility: Volatility
}

/** What this server knows of its population, for weighing evidence (see population.ts, MODEL.md). */
export interface Population {
  /** Visitors stored. */
  visitors: number
  /** Counted visitors per bucket of time since their last visit (recency.ts), once measured. */
  lastSeen?: readonly number[]
  /** Confirmed comebacks per bucket of time since their visitor's previous visit (recency.ts), learned. */
  returnGaps?: readonly number[]
  /** Visitors whose current value of `component` has this digest. */
  count(component: string, digest: string): number
  /**
   * Every stored visitor, and those holding a value, counted in the statistics or not (beyond
   * their network's budget: an office's, a carrier's). Absent: the counted ones stand for all.
   */
  allVisitors?: number
  countAll?(component: string, digest: string): number
  /** How a facet changes for one device of this population (learned from comebacks, bounded). */
  rates(facet: FacetName): ChangeRates
  /** P(another device's value is close to a given one): measured on pairs of stored devices. */
  closeChance(facet: FacetName): number
}

/** Levels from the closest to the furthest. */
export const LEVELS: readonly Level[] = ['exact', 'previous', 'close', 'different']
/** Each level's place in LEVELS: a member further than another makes its facet that far. */
const LEVEL_RANK = Object.fromEntries(LEVELS.map((level, rank) => [level, rank])) as Record<Level, number>
/** The stored device holds the value: now, or as one it showed before (light mode again, home from a trip). */
export const levelHolds = (level: string) => level === 'exact' || level === 'previous'

export interface FacetEvidence {
  facet: FacetName
  level: Level
  /** Log-likelihood ratio, in bits: positive for "same device", negative for "another device". */
  bits: number
}

export interface Evidence {
  /** Sum of the facets' bits: log2 P(observation | the stored device) / P(observation | unrelated device). */
  bits: number
  /** The same sum against a twin: log2 P(observation | the stored device) / P(observation | its twin). */
  twinBits: number
  facets: FacetEvidence[]
  /**
   * How rare the values the stored device holds (levelHolds) are together, in bits, were facets
   * independent: the sum of −log2 of each one's commonness as weighed (matchVisitor sets it against
   * how many look-alikes hold them all).
   */
  rarity: number
  /**
   * The part of `rarity` from the facets the machine sets (FacetModel.machine), and the largest of
   * theirs alone: one machine's values come together, so together they are at most as rare as the
   * sum says and at least as rare as the rarest (match-visitor.ts machineAgreement).
   */
  machine: { rarity: number; rarest: number }
}

/** Overlap of parts above which a changed value still counts as close (a font added, a version bumped). */
export const CLOSE_OVERLAP = 0.5
/** Pseudo-count of the prior commonness against the server's own statistics. */
const PRIOR_VISITORS = 10
/**
 * Of the changes, the share that return to a recent earlier value on purpose (travel home, dark mode
 * off). The others land on a value as the population holds them, which may be that earlier one too:
 * see returnShare.
 */
const RETURN_SHARE = 0.5
/** Of the differences between twins, the share that keep the value's structure. */
const TWIN_CLOSE_SHARE = 0.3
/**
 * Of one device's close changes to a set a person edits (editedSets), the share that both add and
 * remove members. Where the direction can be told (Direction), a close set is two levels, one way
 * and both ways, and record linkage's levels are one partition for m and u alike: each is weighed
 * against the look-alikes close the same way (closeRatesAmong).
 */
const TWO_EDITS_SHARE = 0.2
/** Of one device's edits of a set one way, the share that gain members (the rest lose them). */
const GAINING_SHARE = 0.5
/** Of a close level's m, the part its direction takes (all of it where none can be told). */
const directionShare = (direction: Direction | undefined) =>
  direction === undefined ? 1 : direction === 'both ways' ? TWO_EDITS_SHARE : 1 - TWO_EDITS_SHARE
/** Of a facet's values, the share that follow its `given` component when that changes. */
const FOLLOWING_SHARE = 0.5
/** No kind of change is ever taken as impossible: a share below this counts as this. */
const MIN_SHARE = 0.05
/**
 * Of a browser's updates, the share that go back to a build the device had left (FacetModel.build):
 * a reinstall or a rollback, as rare as any change is taken to be (MIN_SHARE). A look-alike still on
 * that build (not yet updated) is the likelier explanation.
 */
const ROLLBACK_SHARE = MIN_SHARE

/**
 * How a close set a person edits (editedSets) moved: members only gained or only lost (one way), or
 * both (two edits at once: a family replaced by another). Told only where both values are whole.
 */
export type Direction = 'one way' | 'both ways'

interface ComponentComparison {
  level: Level
  direction?: Direction
  /** For a close set whose members come from a known list (knownMembers): see setsReached. */
  reached?: number
}

/** How many ways there are to choose `k` of `n` (`k` ≤ `n`). */
function choose(n: number, k: number): number {
  let ways = 1
  for (let i = 0; i < k; i++) ways = (ways * (n - i)) / (i + 1)
  return ways
}

/**
 * How many sets a device can reach from its stored set of `held` members by gaining `gained` of
 * the `known` members it lacks (knownMembers: the list the agent probes) and losing `lost` of those
 * it holds: the request's set is one of them. A forged set larger than the list counts every
 * member it gained as one of a kind.
 */
const setsReached = (known: number, held: number, gained: number, lost: number) =>
  choose(Math.max(known - held, gained), gained) * choose(held, lost)

function compareComponent(
  name: string,
  current: FingerprintProfile,
  stored: StoredProfile,
): ComponentComparison {
  const digest = current.digests[name]
  if (digest === stored.digests[name]) return { level: 'exact' }
  if (digest !== undefined && stored.previous[name]?.includes(digest)) return { level: 'previous' }
  const mine = current.parts[name]
  const theirs = stored.parts[name]
  if (mine && theirs) {
    const { overlap, onlyLeft, onlyRight, left, right, shared } = compareParts(mine, theirs)
    if (overlap >= CLOSE_OVERLAP) {
      // A value cut at MAX_PARTS parts may show one member added as one gained and one lost.
      const whole = Math.max(mine.length, theirs.length) < MAX_PARTS * PART_WIDTH
      if (!whole || !editedSets.has(name)) return { level: 'close' }
      const direction = onlyLeft && onlyRight ? 'both ways' : 'one way'
      const known = knownMembers[name as SourceName]
      // The same members in another order or twice (no browser sends its set so: forged) reach
      // no set by an edit.
      if (known === undefined || (!onlyLeft && !onlyRight)) return { level: 'close', direction }
      return { level: 'close', direction, reached: setsReached(known, right, left - shared, right - shared) }
    }
  }
  return { level: 'different' }
}

/**
 * How common a value is among the other visitors: the server's own count, smoothed towards the
 * facet's prior commonness while the population is small. With `among`, the share is taken among
 * the visitors holding that other value instead (the value's commonness given it); as the count of
 * both values together is not kept, the value's own count stands for it, at most the given's (an
 * overestimate of the share; scoreEvidence also never lets it fall below the share over all).
 */
function commonness(
  population: Population,
  name: string,
  digest: string,
  prior: number,
  mine: boolean,
  /**
   * `mine`: whether the candidate holds that value too (it is then left out of its count);
   * `coverage`: the share of the devices holding it whose stored profile has this value's
   * component at all (visitors stored before the component was matched have none).
   */
  among?: { name: string; digest: string; mine: boolean; coverage: number },
  /** Among every stored visitor, counted in the statistics or not (Population.countAll). */
  all = false,
) {
  const count = (component: string, value: string) =>
    all && population.countAll ? population.countAll(component, value) : population.count(component, value)
  const visitors = all ? Math.max(population.allVisitors ?? 0, population.visitors) : population.visitors
  const self = mine ? 1 : 0
  const others = among
    ? Math.max(count(among.name, among.digest) * among.coverage - (among.mine ? 1 : 0), 0)
    : Math.max(visitors - self, 0)
  const sharing = Math.min(Math.max(count(name, digest) - self, 0), others)
  return Math.min(1, (sharing + PRIOR_VISITORS * prior) / (others + PRIOR_VISITORS))
}

export interface FacetComparison {
  facet: FacetName
  level: Level
  /**
   * At the close level, how a close member set a person edits moved (both ways if any did), where
   * that can be told; the facet's close level is then that direction's.
   */
  direction?: Direction
  /**
   * At the close level, where the close member is a set from a known list (knownMembers): that
   * member, and how many sets the same edits reach from the stored one (setsReached).
   */
  edited?: { name: SourceName; reached: number }
  members: { name: SourceName; digest: string; level: Level }[]
}

/** Each facet both sides have, with its worst member level (one changed member changes the facet). */
const facetList = Object.entries(facets) as [FacetName, (typeof facets)[FacetName]][]

export function compareFacets(current: FingerprintProfile, stored: StoredProfile): FacetComparison[] {
  const compared: FacetComparison[] = []
  for (const [facet, model] of facetList) {
    const members: FacetComparison['members'] = []
    let direction: Direction | undefined
    let edited: FacetComparison['edited']
    for (const name of model.members) {
      const digest = current.digests[name]
      if (digest === undefined || stored.digests[name] === undefined) continue
      const member = compareComponent(name, current, stored)
      members.push({ name, digest, level: member.level })
      if (member.direction && direction !== 'both ways') direction = member.direction
      if (member.reached !== undefined) edited = { name, reached: member.reached }
    }
    if (members.length === 0) continue
    const level = members.reduce<Level>(
      (worst, member) => (LEVEL_RANK[member.level] > LEVEL_RANK[worst] ? member.level : worst),
      'exact',
    )
    compared.push(
      level === 'close' && direction
        ? { facet, level, direction, ...(edited && { edited }), members }
        : { facet, level, members },
    )
  }
  return compared
}

/**
 * Scores how strongly the evidence says that `current` and `stored` are one device, as record
 * linkage does (Fellegi–Sunter): per facet, the likelihoods of the level observed under "the stored
 * device", "an unrelated device" and "its twin" (MODEL.md), summed as log2 ratios. An
 * agreement counts more the rarer the value (the rarest member stands for the facet: its members are
 * correlated); a difference counts less the more often that facet changes for this device. A facet
 * that follows another component (the window, its screen) counts its rarity among the devices
 * sharing that component's value. Facets only one side has are left out.
 */
export function scoreEvidence(
  current: FingerprintProfile,
  stored: StoredProfile,
  population: Population,
  /** What the request's look-alikes say (closeRatesAmong, coverageAmong); the population's otherwise. */
  lookAlikes: LookAlikes = {},
  compared: FacetComparison[] = compareFacets(current, stored),
): Evidence {
  // Without look-alikes, nothing says how many of the close values went which way: each direction
  // is taken as common as any close value (an upper bound, never evidence the model assumed).
  const lookedUp = lookAlikes.closeChance ?? ((facet: FacetName) => population.closeChance(facet))
  let bits = 0
  let twinBits = 0
  let rarity = 0
  const machine = { rarity: 0, rarest: 0 }
  const evidence: FacetEvidence[] = []
  for (const { facet, level, direction, edited: editedSet, members } of compared) {
    const model: FacetModel = facets[facet]
    const given = model.given
    const givenDigest = given && current.digests[given]
    // A facet that follows another component is weighed only beside it (see FacetModel.given).
    if (given && (!givenDigest || stored.digests[given] === undefined)) continue
    const among =
      given && givenDigest
        ? {
            name: given,
            digest: givenDigest,
            mine: stored.digests[given] === givenDigest,
            coverage: lookAlikes.coverage?.(facet) ?? 1,
          }
        : undefined
    let rarest = 1
    let rarestAmong = 1
    // An agreement is never counted rarer than among every stored visitor, counted or not: the
    // devices beyond their network's budget (an office's, behind one NAT) are devices all the same.
    let rarestOfAll = levelHolds(level) && population.countAll ? 1 : 0
    for (const member of members) {
      const exact = member.level === 'exact'
      rarest = Math.min(rarest, commonness(population, member.name, member.digest, model.commonness, exact))
      if (among)
        rarestAmong = Math.min(
          rarestAmong,
          commonness(population, member.name, member.digest, model.commonness, exact, among),
        )
      if (rarestOfAll > 0)
        rarestOfAll = Math.min(
          rarestOfAll,
          commonness(
            population,
            member.name,
            member.digest,
            model.commonness,
            exact,
            among?.mine ? among : undefined,
            true,
          ),
        )
    }
    // An agreement counts by its rarity among the devices sharing the given value; never by more
    // than over all devices (smoothing can make a small group's share look rarer).
    // Where the given value changed, the candidate is not among those sharing it: over all, then.
    const held = Math.max(among?.mine ? Math.max(rarest, rarestAmong) : rarest, rarestOfAll)
    const populationRates = population.rates(facet)
    // At the close level of an edited set, the share close the same way (one way or both).
    const closeChance = lookedUp(facet, level, direction)
    const rates = deviceRates(populationRates, stored.volatility, facet)
    const { change, close, undo = 0, acquired = 0 } = rates
    // A value the device has not shown (close or different) is one of its novel changes: a device
    // seen switching back and forth is likely to switch back, not to show a third value.
    const novel = rates.novel ?? change
    // Where the device's latest comeback moved the facet to a value it had not shown (an outing:
    // a trip, dark mode at dusk), the outing may be over now (P = undo, MODEL.md); every other
    // outcome keeps its odds in what is left.
    const kept = 1 - undo
    // A build spreads as devices update on their vendor's schedule: few hold a new one yet, but
    // another device shows it about as often as it holds an earlier build of the same browser
    // (close, among the look-alikes) and updates. Its stored share alone would make the first
    // devices seen on it look alike beyond what their builds say (MODEL.md, "Weights").
    const agreeing = model.scheduled
      ? Math.max(held, Math.min(1, closeChance * populationRates.change))
      : held
    const twin = model.twinDifference
    // A value the device has not shown: its change lands there as often as changes were seen going
    // from its value to this one, where that is likelier than the value's share says (towardBits).
    // A twin set up otherwise picks its settings where people's changes go too: its side gains alike.
    const toward =
      level === 'close' || level === 'different'
        ? towardBits(lookAlikes.moves, facet, rarest / another(level === 'close', closeChance, rarest))
        : 0
    let facetBits: number
    let facetTwinBits: number
    switch (level) {
      case 'exact': {
        facetBits = Math.log2((kept * (1 - change)) / agreeing)
        // A twin shares the values the device came with, not one it moved to at its latest comeback
        // (an outing: a trip's time zone): it lives at the device's earlier value, and shows this
        // one only as a twin's difference lands on it, by its share (as sure as the outing is).
        const twinHolds =
          acquired > 0
            ? acquired *
                twin *
                Math.max(landingShare(population, model, stored, members, 'latest'), MIN_SHARE) +
              (1 - acquired) * (1 - twin)
            : 1 - twin
        facetTwinBits = Math.log2((kept * (1 - change)) / twinHolds)
        break
      }
      case 'previous': {
        // Updates only move forward: an earlier build of this browser is a rollback, not a return.
        // Only the numbers moved (a desktop site asked for, then the phone's own again, is a return).
        const rollback = members.some(
          (member) =>
            member.level === 'previous' &&
            model.build?.includes(member.name) &&
            current.parts[member.name] === stored.parts[member.name],
        )
        const landing = rollback ? ROLLBACK_SHARE : landingShare(population, model, stored, members)
        const back = rollback ? ROLLBACK_SHARE : returnFrom(landing)
        facetBits = Math.log2((undo + kept * change * back) / agreeing)
        // A twin has no change that returns on purpose: where the device left that value for the one
        // it holds (no outing), a twin's difference lands on it by its share alone (`d · landing`).
        // On an outing the earlier value is the device's settled one, where its twin lives too: the
        // ratio keeps `change / twin` there, as it does for a rollback.
        facetTwinBits =
          undo > 0 || rollback
            ? Math.log2((undo + kept * change * (rollback ? ROLLBACK_SHARE : 1)) / twin)
            : Math.log2((kept * change * back) / (twin * Math.max(landing, MIN_SHARE)))
        break
      }
      case 'close': {
        // Never impossible: a facet whose changes are all whole (zoom) still shows a close value now and then.
        const closeShare = Math.max(close, MIN_SHARE)
        // A newer build: as likely as the devices seen since show it, if that is likelier.
        const updated = lookAlikes.updated
        const moved = model.scheduled && updated !== undefined && updated > novel ? updated : novel
        const edited = kept * moved * closeShare * directionShare(direction)
        // The edit lands on the request's set as often as devices hold it among the close ones
        // (against k); for a set from a known list, weighed against the look-alikes, it may land on
        // any set the same edits reach alike (landingBits): the likelier landing counts.
        facetBits = Math.log2(edited / another(true, closeChance, rarest)) + toward
        if (editedSet && lookAlikes.closeChance) {
          // Of the edits one way, half gain members and half lose them.
          const kind = direction === 'one way' ? GAINING_SHARE : 1
          const landing = landingBits(population, model, editedSet.name, current, stored, {
            landing: (edited * kind) / editedSet.reached,
            exact: kept * (1 - change),
          })
          facetBits = Math.max(facetBits, landing)
        }
        // Twins' sets differ by installs and swaps alike: against a twin, the count of edits says nothing.
        facetTwinBits = Math.log2((kept * moved * closeShare) / (twin * TWIN_CLOSE_SHARE))
        break
      }
      case 'different':
        facetBits =
          Math.log2((kept * novel * Math.max(1 - close, MIN_SHARE)) / another(false, closeChance, rarest)) +
          toward
        facetTwinBits = Math.log2(
          (kept * novel * Math.max(1 - close, MIN_SHARE)) / (twin * (1 - TWIN_CLOSE_SHARE)),
        )
        break
    }
    // What the facet follows changed too (docked to another monitor, set to another country): a
    // value that follows it (a maximised window, the languages) changes with it, so a change is far
    // likelier for one device than the facet's own change rate says, close or different as its
    // changes are; against another device, as likely as ever. A window says nothing about twins
    // then; a twin set up in another place has that place's languages as often as one device
    // moved there does, so the languages are weighed against a twin at the same following share.
    const leader = model.given ?? model.changesWith
    const leaderMoved =
      leader !== undefined &&
      current.digests[leader] !== undefined &&
      stored.digests[leader] !== undefined &&
      current.digests[leader] !== stored.digests[leader]
    if (leaderMoved && (level === 'close' || level === 'different')) {
      const isClose = level === 'close'
      // How likely this level is for the device, having followed: close or different as its changes are.
      const followed =
        kept * (change + (1 - change) * FOLLOWING_SHARE) * Math.max(isClose ? close : 1 - close, MIN_SHARE)
      // A close set's direction, as above (compareFacets tells one at the close level only).
      facetBits =
        Math.log2((followed * directionShare(direction)) / another(isClose, closeChance, rarest)) + toward
      const twinFollowed =
        (twin + (1 - twin) * FOLLOWING_SHARE) * (isClose ? TWIN_CLOSE_SHARE : 1 - TWIN_CLOSE_SHARE)
      facetTwinBits = model.given !== undefined ? 0 : Math.log2(followed / twinFollowed)
    }
    if (levelHolds(level)) {
      const valueRarity = -Math.log2(agreeing)
      rarity += valueRarity
      if (model.machine) {
        machine.rarity += valueRarity
        machine.rarest = Math.max(machine.rarest, valueRarity)
      }
    }
    twinBits += facetTwinBits
    bits += facetBits
    evidence.push({ facet, level, bits: facetBits })
  }
  return { bits, twinBits, facets: evidence, rarity, machine }
}

/**
 * Of a device's changes to a facet, the share that land on the earlier value it shows again: the
 * changes that return on purpose (RETURN_SHARE), and of the rest, those that land there as any
 * change lands on a value (landingShare). For a facet of few values that is most of them: a device
 * leaving dark mode can only go back to light, and one leaving an uncommon zoom mostly goes back to
 * the usual one. For a facet of many values (a time zone, a font set) it stays near RETURN_SHARE.
 */
export function returnShare(
  population: Population,
  model: FacetModel,
  stored: StoredProfile,
  members: FacetComparison['members'],
) {
  return returnFrom(landingShare(population, model, stored, members))
}

/** The changes that return on purpose, and of the others those that land there (see returnShare). */
const returnFrom = (landing: number) => RETURN_SHARE + (1 - RETURN_SHARE) * landing

/**
 * Of the changes that do not return on purpose (a device's, or a twin's difference from it), the
 * share that land on a value: its share among the values other than the one left (`a_v / (1 −
 * a_w)`), per member the least of them (members of a facet move together). `earlier`: the value
 * shown again is one the device showed before (members at the `previous` level), left from its
 * latest; `latest`: the value it holds now, moved to at its latest comeback, left from the one it
 * had before (its settled value, where its twin lives). 0 where no member moved.
 */
function landingShare(
  population: Population,
  model: FacetModel,
  stored: StoredProfile,
  members: FacetComparison['members'],
  onto: 'earlier' | 'latest' = 'earlier',
) {
  const back = onto === 'earlier'
  let landing = Number.POSITIVE_INFINITY
  for (const member of members) {
    if (back && member.level !== 'previous') continue
    const left = back ? stored.digests[member.name] : stored.previous[member.name]?.[0]
    if (left === undefined || left === member.digest) continue
    const shown = commonness(population, member.name, member.digest, model.commonness, !back)
    const leaving = commonness(population, member.name, left, model.commonness, back)
    landing = Math.min(landing, shown / Math.max(1 - leaving, shown, MIN_SHARE))
  }
  return Number.isFinite(landing) ? landing : 0
}

/**
 * How much likelier a change lands on the request's value than its share says, in bits (never
 * fewer than none): the close and different levels weigh a change's landing as the request's share
 * among the values a change can reach (`rarest / another`); the look-alikes seen leaving the
 * candidate's value say how many went to the request's (LookAlikes.moves).
 */
function towardBits(moves: LookAlikes['moves'], facet: FacetName, share: number) {
  const landing = Math.min(1, share)
  if (!moves || !(landing > 0)) return 0
  return Math.max(0, Math.log2(moves(facet, landing) / landing))
}

/**
 * How likely another device's value is close to a facet's value, or different from it: never
 * impossible. `rarest` is the share of devices holding the value itself.
 */
function another(isClose: boolean, closeChance: number, rarest: number) {
  return isClose ? Math.max(closeChance, 0.01) : Math.max(1 - rarest - closeChance, MIN_SHARE)
}

/**
 * A close set from a known list, weighed as the device's edit landing on the request's very set
 * (MODEL.md, "Weights"): `m.landing` (the close direction's m, shared among the sets the same edits
 * reach) against the share of devices holding the request's set, counted or not. Never more than
 * the stored set itself would weigh as an exact agreement (`m.exact`): a near value chosen rare (a
 * forged one) counts for no more than a copy of the device's own.
 */
function landingBits(
  population: Population,
  model: FacetModel,
  name: SourceName,
  current: FingerprintProfile,
  stored: StoredProfile,
  m: { landing: number; exact: number },
) {
  const held = (digest: string | undefined, mine: boolean) => {
    if (digest === undefined) return 1
    const counted = commonness(population, name, digest, model.commonness, mine)
    return population.countAll
      ? Math.max(counted, commonness(population, name, digest, model.commonness, mine, undefined, true))
      : counted
  }
  return Math.min(
    Math.log2(m.landing / held(current.digests[name], false)),
    Math.log2(m.exact / held(stored.digests[name], true)),
  )
}

/** What the look-alikes blocking found for a request say about its population (look-alikes.ts). */
export interface LookAlikes {
  /**
   * How likely another device's value is close (closeRatesAmong); the model's default otherwise.
   * With a direction, the share close that way: its m is that direction's share (directionShare).
   */
  closeChance?: (facet: FacetName, level?: Level, direction?: Direction) => number
  /** For a facet with a `given`, the share of devices holding it that have the facet (coverageAmong). */
  coverage?: (facet: FacetName) => number
  /**
   * For a browser's build (a scheduled facet): of the look-alikes seen since the candidate was last
   * seen, the share that updated from the candidate's build to the request's (updatesSince). A build
   * comes out for every device at once: where most devices seen since made that move, this one
   * likely did too.
   */
  updated?: number
  /**
   * For a facet where the request shows a value the candidate has not, how often a change from the
   * candidate's value lands on the request's, given the share its commonness says (`landing`): the
   * look-alikes seen making that move say (movesSeen). Where changes were seen going, a change is
   * likelier to land.
   */
  moves?: (facet: FacetName, landing: number) => number
}
