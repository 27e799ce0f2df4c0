import './browser-zod'
import { z } from 'zod'

// The smart signals, declared once: the server's detectors return these types, the identify
// answer, the Server API, the console and the /v4 mapping read them. Every signal has a result
// and plain-language reasons (empty when nothing was found).

const reasons = z.array(z.string())
const flag = z.object({ result: z.boolean(), reasons })
export const Confidence = z.enum(['low', 'medium', 'high'])
export type Confidence = z.infer<typeof Confidence>

/** Counts over the last 5 minutes, hour and day. */
const windows3 = z.object({ '5m': z.number().int(), '1h': z.number().int(), '24h': z.number().int() })
const windows2 = z.object({ '1h': z.number().int(), '24h': z.number().int() })

export const BotSignal = z.object({
  result: z.enum(['notDetected', 'good', 'bad']),
  /** What kind of bot, where one was found (e.g. `Headless Chromium`, a declared crawler's name). */
  kind: z.string().optional(),
  reasons,
})
export type BotSignal = z.infer<typeof BotSignal>

/** A yes/no finding: tampering, a privacy-hardened browser, a private window, a virtual machine. */
export const FlagSignal = flag
export type FlagSignal = z.infer<typeof FlagSignal>

/** Where the address is and who runs its network: null where the databases do not know it (a private address). */
export const IpInfo = z.object({
  address: z.string(),
  version: z.union([z.literal(4), z.literal(6)]),
  countryCode: z.string().nullable(),
  countryName: z.string().nullable(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** The country's time zone where it has one (the databases hold none of their own). */
  timezone: z.string().nullable(),
  asn: z.number().int().nullable(),
  asnOrganization: z.string().nullable(),
  /** hosting, vpn or relay where the network is known to be one; isp otherwise. */
  asnType: z.enum(['hosting', 'vpn', 'relay', 'isp']).nullable(),
})
export type IpInfo = z.infer<typeof IpInfo>

export const NetworkSignals = z.object({
  ipInfo: z.object({ result: IpInfo.nullable(), reasons }),
  /** A hosting network; `kind` names its operator where the list does. */
  datacenter: z.object({ result: z.boolean(), kind: z.string().optional(), reasons }),
  vpn: z.object({
    result: z.boolean(),
    confidence: Confidence,
    details: z.object({
      /** The browser's time zone, and the country the address is placed in. */
      originTimezone: z.string().nullable(),
      originCountry: z.string().nullable(),
      methods: z.object({ timezoneMismatch: z.boolean(), publicVpn: z.boolean(), relay: z.boolean() }),
    }),
    reasons,
  }),
  proxy: z.object({ result: z.boolean(), confidence: Confidence, reasons }),
  tor: flag,
})
export type NetworkSignals = z.infer<typeof NetworkSignals>

/** This visitor's recent activity: its events, distinct addresses and accounts (linked IDs). */
export const VelocitySignal = z.object({
  result: z.object({
    events: windows3,
    distinctIps: windows3,
    distinctLinkedIds: z.object({ '24h': z.number().int() }),
  }),
  reasons,
})
export type VelocitySignal = z.infer<typeof VelocitySignal>

/** How many visitors and accounts the address and its network showed (null without an address). */
export const IpVelocitySignal = z.object({
  result: z
    .object({
      /** Identifications from this very address, and the visitors and accounts behind them. */
      address: z.object({ events: windows3, visitors: windows2, accounts: windows2 }),
      /** The same over the address's /24 (IPv4) or /56 (IPv6). */
      network: z.object({ prefix: z.string(), visitors: windows2, accounts: windows2 }),
    })
    .nullable(),
  reasons,
})
export type IpVelocitySignal = z.infer<typeof IpVelocitySignal>

export const AgentProofVerdict = z.enum(['valid', 'missing', 'invalid', 'expired', 'reused'])
export type AgentProofVerdict = z.infer<typeof AgentProofVerdict>

/** Every smart signal of one identification, as the server computes it. */
export const SmartSignals = NetworkSignals.extend({
  bot: BotSignal,
  tampering: FlagSignal,
  privacyBrowser: FlagSignal,
  privateMode: FlagSignal,
  virtualMachine: FlagSignal,
  velocity: VelocitySignal,
  ipVelocity: IpVelocitySignal,
  /** The address is in the site's own blocklist (the console's Sites panel). */
  ipBlocklist: flag,
  /** Only for a call through the identify route, which checks the agent's proof. */
  agentProof: z.object({ result: AgentProofVerdict, reasons }).optional(),
})
export type SmartSignals = z.infer<typeof SmartSignals>
export type SignalName = keyof SmartSignals

/**
 * The signals of a stored event: each may be missing from an event stored before that signal
 * existed (signals are only ever added; a shape is never changed in place).
 */
export const StoredSignals = SmartSignals.partial()
export type StoredSignals = z.infer<typeof StoredSignals>

/**
 * The signals the identify answer gives the browser: all but ipVelocity, whose counts would tell
 * anyone behind an address how busy it is and how far below the limits to stay.
 */
export const BrowserSignals = SmartSignals.omit({ ipVelocity: true })
export type BrowserSignals = z.infer<typeof BrowserSignals>
