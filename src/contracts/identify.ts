import { z } from 'zod'
import { BrowserSignals } from './signals'

/** A JSON value as the agent sends it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json }
export const JsonValue: z.ZodType<Json> = z
  .lazy(() =>
    z.union([
      z.string(),
      z.number(),
      z.boolean(),
      z.null(),
      z.array(JsonValue),
      z.record(z.string(), JsonValue),
    ]),
  )
  .meta({ id: 'JsonValue', description: 'Any JSON value.' })

/** The largest tag an event keeps, as JSON text in UTF-8: Fingerprint's limit (16 KB). */
export const MAX_TAG_BYTES = 16 * 1024

/**
 * Free-form data an integrator attaches to an event, kept with it for the retention period and
 * copied into its webhooks: bounded, so that one public call cannot store a body's worth of it.
 */
export const EventTag = z
  .record(z.string(), JsonValue)
  .refine(
    (tag) => new TextEncoder().encode(JSON.stringify(tag)).length <= MAX_TAG_BYTES,
    `A tag may hold at most ${MAX_TAG_BYTES / 1024} KB of JSON.`,
  )

/** One collected signal: its value, or the error that prevented it, and how long it took. */
export const ComponentResult = z.union([
  z.object({ value: JsonValue, duration: z.number().nonnegative() }).strict(),
  z.object({ error: z.string().max(500), duration: z.number().nonnegative() }).strict(),
])
export type ComponentResult = z.infer<typeof ComponentResult>

const componentName = z
  .string()
  .regex(/^[a-zA-Z][a-zA-Z0-9]{0,63}$/, 'Component names are short identifiers.')

/** What the agent posts to `POST /api/v1/identify`. */
export const IdentifyRequest = z
  .object({
    components: z
      .record(componentName, ComponentResult)
      .refine((components) => Object.keys(components).length > 0, 'At least one component is required.')
      .refine((components) => Object.keys(components).length <= 200, 'At most 200 components are accepted.'),
    /** The signed visitor token the agent kept in localStorage/IndexedDB, if any. */
    storedToken: z.string().max(200).optional(),
    /** Public key of the site the agent runs for. */
    siteKey: z.string().max(100).optional(),
    /** The page the agent ran on. */
    url: z.string().max(2000).optional(),
    /** Free-form data the integrator attaches to this event. */
    tag: EventTag.optional(),
    /** The integrator's own identifier for this visitor (e.g. an account ID). */
    linkedId: z.string().max(256).optional(),
    /** The nonce from `GET /api/v1/nonce`: the agent's proof that it ran (see SECURITY.md). */
    nonce: z.string().max(200).optional(),
  })
  .strict()
export type IdentifyRequest = z.infer<typeof IdentifyRequest>

/** The query of `GET /api/v1/nonce`. */
export const NonceQuery = z.object({
  /** Public key of the site the agent runs for; Tessera's own pages may leave it out. */
  siteKey: z.string().max(100).optional(),
})

/** The answer of `GET /api/v1/nonce`: a short-lived, single-use nonce for the next identify call. */
export const NonceResponse = z.object({ nonce: z.string(), expiresAt: z.string() })
export type NonceResponse = z.infer<typeof NonceResponse>

/** The answer of `POST /api/v1/identify`. */
export const IdentifyResponse = z.object({
  requestId: z.string(),
  visitorId: z.string(),
  visitorFound: z.boolean(),
  confidence: z.object({ score: z.number().min(0).max(1) }),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  signals: BrowserSignals,
  suspectScore: z.number().int(),
  /** Signed visitor token for the agent's localStorage/IndexedDB copies. */
  storedToken: z.string(),
  /**
   * Only for a site with a sealing key: the event as GET /v4/events/{id} answers it but for
   * `suspect` (it passes through the browser, whose length would tell it), sealed in Fingerprint's
   * format (base64), for the back end to open with the key.
   */
  sealed_result: z.string().optional(),
})
export type IdentifyResponse = z.infer<typeof IdentifyResponse>
