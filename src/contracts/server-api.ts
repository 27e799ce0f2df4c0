import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'
import { JsonValue } from './identify'
import { IP_FILTER_MESSAGE, parseIpFilter } from './ip-filter'
import { StoredSignals } from './signals'

extendZodWithOpenApi(z)

export const ApiError = z
  .object({ error: z.object({ code: z.string(), message: z.string() }) })
  .openapi('Error', { description: 'Every 4xx answer has this shape.' })

export const StoredEvent = z
  .object({
    requestId: z.string(),
    visitorId: z.string(),
    visitorFound: z.boolean(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    confidence: z.object({ score: z.number().min(0).max(1) }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    url: z.string().nullable(),
    siteKey: z.string().nullable(),
    tag: z.record(z.string(), JsonValue).nullable(),
    linkedId: z.string().nullable(),
    signals: StoredSignals,
    suspectScore: z.number().int(),
    visitorLabel: z.enum(['fraud', 'good']).nullable().optional().openapi({
      description:
        "An analyst's label of the visitor, set in the console (null: none). In Server API answers and webhooks; never in the identify answer.",
    }),
  })
  .openapi('Event')
export type StoredEvent = z.infer<typeof StoredEvent>

export const EventPage = z
  .object({ events: z.array(StoredEvent), nextCursor: z.string().nullable() })
  .openapi('EventPage', { description: 'Newest first. Pass nextCursor back to get the next page.' })
export type EventPage = z.infer<typeof EventPage>

export const VisitorHistory = z
  .object({
    visitorId: z.string(),
    firstSeenAt: z.string().openapi({ format: 'date-time' }),
    lastSeenAt: z.string().openapi({ format: 'date-time' }),
    events: z.array(StoredEvent),
    nextCursor: z.string().nullable(),
  })
  .openapi('VisitorHistory')
export type VisitorHistory = z.infer<typeof VisitorHistory>

// Years 0001–9999: the ISO pattern also admits year 0000, which PostgreSQL refuses (a 500 before).
const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00Z')
const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')

/** Whether a time (ms since the epoch) is one PostgreSQL reads back from its ISO string. */
export function isStorableInstant(time: number): boolean {
  return time >= EARLIEST_INSTANT && time <= LATEST_INSTANT
}

const instant = z.iso
  .datetime({ offset: true })
  .refine((value) => isStorableInstant(Date.parse(value)), 'Dates must fall in the years 0001 to 9999.')

const limit = z.coerce.number().int().min(1).max(100).default(20)
const cursor = z.string().max(200).optional()

export const VisitorHistoryQuery = z.object({ limit, before: cursor })

export const EventSearchQuery = z
  .object({
    visitorId: z.string().max(64).optional(),
    linkedId: z.string().max(256).optional(),
    ip: z
      .string()
      .max(64)
      .refine((value) => parseIpFilter(value) !== null, IP_FILTER_MESSAGE)
      .optional()
      .openapi({ description: 'An IP address, or a CIDR range like `10.0.0.0/24`.' }),
    bot: z.enum(['notDetected', 'good', 'bad']).optional(),
    since: instant.optional(),
    until: instant.optional(),
    limit,
    cursor,
  })
  .strict()
export type EventSearchQuery = z.infer<typeof EventSearchQuery>

export const RequestIdParam = z.object({ requestId: z.string().min(1).max(64) })
export const VisitorIdParam = z.object({ visitorId: z.string().min(1).max(64) })
