// What the server would have derived from bench:scale's synthetic visitors, computed with the
// server's own code: fingerprint profiles and blocking keys, smart signals and suspect scores,
// match evidence, sign-up decisions under the default policy. No table layouts (scale-load.ts).
import type { MatchEvidence } from '../../src/contracts/device'
import type { ComponentResult } from '../../src/contracts/identify'
import type { SmartSignals, StoredSignals } from '../../src/contracts/signals'
import { defaultSignupPolicy } from '../../src/contracts/signup-policy'
import { blockingKeys } from '../../src/server/identification/blocking-keys'
import { facets } from '../../src/server/identification/component-model'
import { profileComponents } from '../../src/server/identification/fingerprint-profile'
import { lookUpAddress } from '../../src/server/network/network-data'
import { computeSignals } from '../../src/server/signals/compute-signals'
import { detectNetwork } from '../../src/server/signals/detect-network'
import { ComponentReader } from '../../src/server/signals/read-components'
import type { RequestEvidence } from '../../src/server/signals/request-evidence'
import { explainSuspectScore } from '../../src/server/signals/suspect-score'
import { evaluatePolicy, type SignupFacts } from '../../src/server/signup/policy/evaluate-policy'
import { cleanSignupFacts } from '../../tests/support/signup-facts'
import { seededRandom } from '../../tests/support/synthetic-devices'
import { BASE_COMPONENTS } from './scale-snapshot'
import type { Address, Traffic, Visitor } from './scale-traffic'

/** The signals that follow from the device alone (the network's and the velocities are added per event). */
export type DeviceSignals = Omit<SmartSignals, 'velocity' | 'ipVelocity' | keyof NetworkPart>
type NetworkPart = ReturnType<typeof detectNetwork>

export interface DerivedVisitor {
  visitor: Visitor
  digests: Record<string, string>
  parts: Record<string, string>
  keys: string[]
  device: DeviceSignals
  home: { signals: NetworkPart; score: number }
  mobile: { signals: NetworkPart; score: number } | null
}

/** Derives visitors one by one, sharing what many have in common (the base profile, device signals). */
export function createDeriver(traffic: Traffic) {
  // Profiles are per component: the base's digests are computed once, the variation's per visitor.
  const varied = new Set(Object.keys(traffic.visitor(0).variation))
  const base = profileComponents(
    Object.fromEntries(Object.entries(BASE_COMPONENTS).filter(([name]) => !varied.has(name))),
  )
  const devices = new Map<string, DeviceSignals>()

  const deviceSignals = (
    visitor: Visitor,
    components: Record<string, ComponentResult>,
    evidence: RequestEvidence,
  ) => {
    const known = devices.get(visitor.deviceClass)
    if (known) return known
    // Detectors are slow (time-zone arithmetic): one run per device class and time zone.
    const { velocity, ipVelocity, ipInfo, datacenter, vpn, proxy, tor, ...device } = computeSignals(
      components,
      {
        ip: null,
        evidence,
      },
    )
    devices.set(visitor.deviceClass, device)
    return device
  }

  return (index: number): DerivedVisitor => {
    const visitor = traffic.visitor(index)
    const components = traffic.components(visitor)
    const own = profileComponents(visitor.variation)
    const digests = { ...base.digests, ...own.digests }
    const evidence = requestEvidence(components)
    const device = deviceSignals(visitor, components, evidence)
    const reader = new ComponentReader(components)
    const network = (address: Address) => {
      const signals = detectNetwork(address.info, reader, evidence)
      return { signals, score: explainSuspectScore({ ...device, ...signals }).score }
    }
    return {
      visitor,
      digests,
      parts: { ...base.parts, ...own.parts },
      keys: blockingKeys(digests),
      device,
      home: network(visitor.home),
      mobile: visitor.mobile ? network(visitor.mobile) : null,
    }
  }
}

/**
 * Signals in the key order the server writes them (computeSignals'), which staging them as jsonb
 * lost: identify packs the JSON as the server wrote it, and a dictionary's matches depend on the order.
 */
export function inServerOrder(signals: StoredSignals): StoredSignals {
  serverOrder ??= computeSignals(BASE_COMPONENTS, {
    ip: PLACED_ADDRESS,
    address: lookUpAddress(PLACED_ADDRESS),
    evidence: requestEvidence(BASE_COMPONENTS),
  })
  return reordered(signals, serverOrder) as StoredSignals
}

/** An address the offline network data places, so that every nested field is in the template. */
const PLACED_ADDRESS = '81.2.69.142'
let serverOrder: SmartSignals | undefined

function reordered(value: unknown, template: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const model = typeof template === 'object' && template !== null ? (template as Record<string, unknown>) : {}
  const entries = Object.entries(value as Record<string, unknown>)
  const rank = (key: string) => {
    const at = Object.keys(model).indexOf(key)
    return at < 0 ? Number.MAX_SAFE_INTEGER : at
  }
  entries.sort(([a], [b]) => rank(a) - rank(b))
  return Object.fromEntries(entries.map(([key, inner]) => [key, reordered(inner, model[key])]))
}

/** The headers a browser sends with its components, and a valid proof that the agent ran. */
function requestEvidence(components: Record<string, ComponentResult>): RequestEvidence {
  const read = new ComponentReader(components)
  const languages = read.strings('languages')
  return {
    headers: {
      userAgent: read.string('userAgent') ?? null,
      acceptLanguage: languages.map((language, at) => (at === 0 ? language : `${language};q=0.9`)).join(','),
      clientHints: null,
      clientHintsMobile: null,
      clientHintsPlatform: null,
    },
    agentProof: 'valid',
    offShape: [],
  }
}

/**
 * Evidence as the server stores it: a token's and a fingerprint match's, most facets exact; a new
 * visitor's, against the nearest stored device it was not (many facets apart, bits below zero).
 */
export function matchEvidence(method: 'new' | 'token' | 'fingerprint', variant: number): MatchEvidence {
  const random = seededRandom(variant * 31 + method.length)
  const facetEvidence = Object.keys(facets).map((facet) => {
    const roll = random()
    const level =
      method === 'token' || roll < (method === 'new' ? 0.55 : 0.85)
        ? 'exact'
        : roll < 0.93
          ? method === 'new'
            ? 'different'
            : 'previous'
          : 'close'
    const bits = level === 'exact' ? 1 + random() * 6 : level === 'different' ? -2 - random() * 5 : random()
    return { facet, level, bits: Math.round(bits * 1e3) / 1e3 }
  }) satisfies MatchEvidence['facets']
  const bits = facetEvidence.reduce((sum, facet) => sum + facet.bits, 0)
  const contextBits = method === 'token' ? 0 : Math.round(random() * 3e3) / 1e3
  return {
    bits: Math.round((bits + contextBits) * 1e3) / 1e3,
    twinBits: Math.round((random() * 10 - 5) * 1e3) / 1e3,
    facets: facetEvidence,
    jointBits: method === 'token' ? 0 : Math.round(random() * 6e3) / 1e3,
    contextBits,
    recencyBits: Math.round((random() * 6 - 3) * 1e3) / 1e3,
  }
}

/** Sign-up outcomes and reasons under the default policy, each with its share of the attempts. */
export function signupDecisions(): { bot: boolean; share: number; outcome: string; reasons: unknown }[] {
  const person = cleanSignupFacts
  const bot: SignupFacts = { ...person, bot: 'bad', suspectScore: 60 }
  const cases: [boolean, number, SignupFacts][] = [
    [false, 0.9, person],
    [false, 0.06, { ...person, visitorsFromAddress1h: 40, attemptsFromIp10m: 12 }],
    [false, 0.04, { ...person, attemptsFromVisitor10m: 6, accountsFromVisitor24h: 3 }],
    [true, 0.5, bot],
    [true, 0.5, { ...bot, network: { ...bot.network, datacenter: true }, attemptsFromIp10m: 30 }],
  ]
  return cases.map(([isBot, share, facts]) => ({
    bot: isBot,
    share,
    ...evaluatePolicy(facts, defaultSignupPolicy),
  }))
}
