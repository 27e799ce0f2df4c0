import { z } from 'zod'
import { ComponentResult } from './identify'
import { StoredEvent } from './server-api'

/**
 * How a facet of a visit compares with a stored device's, from best to worst. Stored events name a
 * level by its place here (db/packed-evidence.ts): never reorder, and a fifth would not fit its bits.
 */
export const Level = z.enum(['exact', 'previous', 'close', 'different'])
export type Level = z.infer<typeof Level>

/** How one facet of this visit compared with the stored device, and what it weighed (bits). */
export const FacetEvidence = z.object({
  facet: z.string(),
  level: Level,
  bits: z.number(),
})

/** The evidence behind a match, as stored with the event: per facet, the twin test and the address. */
export const MatchEvidence = z.object({
  bits: z.number(),
  twinBits: z.number(),
  contextBits: z.number(),
  /** How long since the device was last seen, as evidence (identification/recency.ts); absent in older events. */
  recencyBits: z.number().optional(),
  /** What the agreeing values say together beyond each alone (match-visitor.ts jointBits), in `bits`; absent in older events. */
  jointBits: z.number().optional(),
  facets: z.array(FacetEvidence),
})
export type MatchEvidence = z.infer<typeof MatchEvidence>

/** How this browser's latest visit was matched: by its token, or by which evidence. */
export const LatestMatch = z.object({
  method: z.string(),
  confidence: z.number(),
  evidence: MatchEvidence.nullable(),
})
export type LatestMatch = z.infer<typeof LatestMatch>

/** GET /api/v1/device: what this server knows of the calling browser's own visits. */
export const DeviceReport = z.object({
  visitorId: z.string(),
  latestMatch: LatestMatch.nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  visits: z.number().int().nonnegative(),
  history: z.array(
    z.object({
      requestId: z.string(),
      createdAt: z.string(),
      ip: z.string().nullable(),
      url: z.string().nullable(),
      confidence: z.number(),
      method: z.string(),
    }),
  ),
  /** Per component: visitors sharing this device's value, among those for which it is known. */
  uniqueness: z.array(
    z.object({
      component: z.string(),
      sharedBy: z.number().int().positive(),
      total: z.number().int().positive(),
      /** Surprisal of the value among those visitors: log2(total / sharedBy). */
      bits: z.number(),
    }),
  ),
})
export type DeviceReport = z.infer<typeof DeviceReport>

/** One stored identification, as the export gives it: the Server API's event fields and how it was matched. */
export const ExportedEvent = StoredEvent.omit({ confidence: true, visitorLabel: true }).extend({
  /** The match's probability, 0 to 1 (the Server API answers it as `{ score }`). */
  confidence: z.number(),
  method: z.enum(['token', 'fingerprint', 'new']),
  evidence: MatchEvidence.nullable(),
  /** What the agent collected, as identify checked and stored it: each component's value or error, and duration (to a tenth of a millisecond). */
  components: z.record(z.string(), ComponentResult),
})
export type ExportedEvent = z.infer<typeof ExportedEvent>

/**
 * GET /api/v1/device/export ("Export my data"): what the calling browser produced, newest first.
 * The visitor's dates and fingerprint digests are missing when its row is gone; the digests are
 * null unless this browser made the visit they follow.
 */
export const DeviceExport = z.object({
  exportedAt: z.string(),
  visitor: z.object({
    visitorId: z.string(),
    firstSeenAt: z.string().optional(),
    lastSeenAt: z.string().optional(),
    fingerprintDigests: z.record(z.string(), z.string()).nullable().optional(),
  }),
  events: z.array(ExportedEvent),
})
export type DeviceExport = z.infer<typeof DeviceExport>

/** DELETE /api/v1/device: what was erased for the calling browser. */
export const ForgottenDevice = z.object({
  /** This browser's visits deleted. */
  deletedVisits: z.number().int().nonnegative(),
  /** Whether the visitor is gone whole; false while other browsers' visits of it remain. */
  visitorDeleted: z.boolean(),
})
export type ForgottenDevice = z.infer<typeof ForgottenDevice>
