import { type SQL, sql } from 'drizzle-orm'
import { boolean, date, index, integer, jsonb, pgTable, real, text, uuid } from 'drizzle-orm/pg-core'
import type { ComponentResult } from '../../../contracts/identify'
import type { StoredEvent } from '../../../contracts/server-api'
import { COMPONENTS_DICTIONARY, USER_AGENT_DICTIONARY } from '../packed-dictionaries'
import { packedEvidence } from '../packed-evidence'
import { packedJson } from '../packed-json'
import { type IpDetails, packedSignals } from '../packed-signals'
import { bytea } from './bytea'
import { botIs, flagIs } from './event-flags'
import { timestamptz } from './timestamptz'

/** A snapshot's components: each one's value or error, without its duration. */
export type StoredComponents = Record<string, DistributiveOmit<ComponentResult, 'duration'>>
type DistributiveOmit<Type, Key extends PropertyKey> = Type extends unknown ? Omit<Type, Key> : never

/**
 * What the agent collected, stored once however many events repeat it: each component's value or
 * error, without its duration (an event keeps its own), packed (packed-json.ts; a snapshot stored
 * before migration 0040 keeps its JSON text). `digest` is SHA-256 of the snapshot's jsonb text (16
 * bytes), as a uuid (component-snapshots.ts). `lastDay` is the latest UTC day an event referenced it, moved by
 * every write that references it (migration 0022): retention deletes the snapshots whose last day is
 * older than every stored event without looking for their events. Forgetting deletes a snapshot
 * with its last event (the trigger of migration 0018).
 */
export const componentSnapshots = pgTable(
  'component_snapshots',
  {
    digest: uuid('digest').primaryKey(),
    components: packedJson<StoredComponents>('components', COMPONENTS_DICTIONARY).notNull(),
    lastDay: date('last_day', { mode: 'string' }).notNull().default(sql`((now() at time zone 'UTC')::date)`),
  },
  (table) => [index('component_snapshots_last_day').on(table.lastDay)],
)

/**
 * What the network data said of a range of addresses beyond an event's own columns (city,
 * coordinates, operator: packed-signals.ts), stored once for every event from that range; `digest`
 * is the first 8 bytes of SHA-256 of the details' JSON. Never deleted: a row says nothing of any
 * visitor, and there are as many as the distinct details the network data has given (each update of
 * the data adds those of the ranges it changed).
 */
export const ipDetails = pgTable('ip_details', {
  digest: bytea('digest').primaryKey(),
  details: jsonb('details').$type<IpDetails>().notNull(),
})

/**
 * The flags events are searched by, each as the predicate of its partial index; a search writes
 * the same text (search-events.ts), which the planner needs to use the index.
 */
export const FLAGGED = {
  bot: botIs(['bad']),
  tampering: flagIs('tampering', true),
  vpn: flagIs('vpn', true),
  tor: flagIs('tor', true),
  datacenter: flagIs('datacenter', true),
  proxy: flagIs('proxy', true),
  virtualMachine: flagIs('virtualMachine', true),
  privateMode: flagIs('privateMode', true),
} as const satisfies Record<string, SQL>

/** One identification: what the agent sent, what the server decided. */
export const events = pgTable(
  'events',
  {
    requestId: text('request_id').primaryKey(),
    // No foreign key (migration 0037): on day tables its cascade read every day's table for each
    // deleted visitor, and dropping a day took a lock that waited for identifications in flight.
    // A visitor's events go with it by statement (forget-visitor.ts, purge-expired-data.ts), and
    // identify upserts the visitor in the statement that writes its event.
    visitorId: text('visitor_id').notNull(),
    createdAt: timestamptz('created_at').notNull().default(sql`now()`),
    visitorFound: boolean('visitor_found').notNull(),
    confidence: real('confidence').notNull(),
    method: text('method').$type<'token' | 'fingerprint' | 'new'>().notNull(),
    /** How the decision was reached: evidence per facet, in bits (see match-visitor.ts). */
    evidence: packedEvidence('evidence'),
    /** A visit after a while, or from a browser without storage: what learn-model.ts learns change rates from. */
    comeback: boolean('comeback').notNull().default(false),
    /** The browser's own secret ID from its token (see persistent-token.ts): never sent to integrators. */
    browserId: text('browser_id'),
    ip: text('ip'),
    /** The address's network as matching groups them (network-of.ts: the /24 or /56): read for ipVelocity. */
    network: text('network'),
    /** The address's autonomous system (network-data.ts), when the AS data has it: matching weighs it. */
    asn: integer('asn'),
    /** The address's country (ISO 3166 code) by the offline city data, when it places the address. */
    country: text('country'),
    /** The request's User-Agent header, packed (packed-json.ts; 10 to 30 bytes where the text took about 110). */
    userAgent: packedJson<string>('user_agent', USER_AGENT_DICTIONARY),
    url: text('url'),
    siteKey: text('site_key'),
    tag: jsonb('tag').$type<NonNullable<StoredEvent['tag']>>(),
    linkedId: text('linked_id'),
    /**
     * The components as collected: their snapshot, and each one's duration in the snapshot's key order,
     * packed in tenths of a millisecond (packed-durations.ts).
     */
    // No foreign key: checking one on each deleted snapshot would read every day's table. Writes
    // lock the snapshot they reference (component-snapshots.ts), which is what keeps it.
    snapshot: uuid('snapshot').notNull(),
    durations: bytea('durations').notNull(),
    /**
     * Packed without what the row holds (packed-signals.ts: read them through eventSignals); what SQL
     * asks of them is in `flags` (event-flags.ts).
     */
    signals: packedSignals('signals').notNull().default(sql`'\\x7b7d'::bytea`),
    /** The digest of the signals' ip_details row, where their ipInfo's details were left out for it. */
    ipDetails: bytea('ip_details'),
    flags: integer('flags').notNull().default(0),
    suspectScore: integer('suspect_score').notNull().default(0),
    /** Set by the integrator (`PATCH /v4/events/{id}`); NULL until then. */
    suspect: boolean('suspect'),
  },
  (table) => [
    index('events_visitor_created').on(table.visitorId, table.createdAt),
    index('events_created').on(table.createdAt),
    index('events_site_created').on(table.siteKey, table.createdAt),
    // Most events carry no linked ID, and a search is always for one (migration 0042).
    index('events_linked_id').on(table.linkedId).where(sql`${table.linkedId} is not null`),
    index('events_ip_created').on(table.ip, table.createdAt),
    index('events_network_created').on(table.network, table.createdAt),
    index('events_asn_created').on(table.asn, table.createdAt),
    index('events_country_created').on(table.country, table.createdAt),
    index('events_browser').on(table.browserId, table.createdAt),
    index('events_snapshot').on(table.snapshot),
    // The console's signal filters: each index holds only the flagged events, in the list's order
    // (newest first, then request ID), so a rare flag (no Tor exit in weeks) is not a scan of every event.
    ...Object.entries(FLAGGED).map(([name, predicate]) =>
      index(`events_${name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}_created`)
        .on(table.createdAt, table.requestId)
        .where(predicate),
    ),
  ],
)
