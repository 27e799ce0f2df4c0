import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, real, text } from 'drizzle-orm/pg-core'
import { timestamptz } from './timestamptz'

/**
 * A recognised device. `profile` follows its latest fingerprint (component name → digest),
 * `parts` the digests of its structured values' parts, `previous` the recent earlier digests of
 * components that changed (see fingerprint-profile.ts), `volatility` what it was seen changing
 * (device-volatility.ts); `modelVersion` the profile and blocking version it was built with
 * (model-version.ts: older ones are re-keyed in the background).
 */
export const visitors = pgTable(
  'visitors',
  {
    id: text('id').primaryKey(),
    profile: jsonb('profile').$type<Record<string, string>>().notNull(),
    parts: jsonb('parts').$type<Record<string, string>>().notNull().default({}),
    previous: jsonb('previous').$type<Record<string, string[]>>().notNull().default({}),
    volatility: jsonb('volatility').notNull().default({}),
    modelVersion: integer('model_version').notNull().default(1),
    /** The network (network-of.ts) the visitor was first seen from: learning bounds each network's share. */
    network: text('network'),
    /** The workspace (sites.workspace) the visitor belongs to: identity is never shared across them. */
    workspace: text('workspace').notNull().default('default'),
    /**
     * Whether the visitor's values count in the population statistics: not when its network or site
     * had already added its hour's budget of new devices (TESSERA_NEW_DEVICES_PER_NETWORK).
     */
    counted: boolean('counted').notNull().default(true),
    firstSeenAt: timestamptz('first_seen_at').notNull().default(sql`now()`),
    lastSeenAt: timestamptz('last_seen_at').notNull().default(sql`now()`),
    visits: integer('visits').notNull().default(1),
  },
  (table) => [
    index('visitors_network_first_seen').on(table.network, table.firstSeenAt),
    // Retention finds the visitors not seen within the period by it (purge-expired-data.ts), oldest first.
    index('visitors_last_seen').on(table.lastSeenAt),
  ],
)

/** Blocking keys: hashes of groups of stable components, so candidates are found by index. */
export const visitorKeys = pgTable(
  'visitor_keys',
  {
    key: text('key').notNull(),
    visitorId: text('visitor_id')
      .notNull()
      .references(() => visitors.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.key, table.visitorId] }),
    index('visitor_keys_visitor').on(table.visitorId),
  ],
)

/** How many visitors share each component value (digest), for entropy and "1 in N". */
export const componentStats = pgTable(
  'component_stats',
  {
    component: text('component').notNull(),
    digest: text('digest').notNull(),
    visitors: integer('visitors').notNull(),
    /**
     * Every stored visitor holding the value, counted in `visitors` or not (beyond its network's
     * budget): it only ever makes an agreement count as commoner (score-evidence.ts).
     */
    allVisitors: integer('all_visitors').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.component, table.digest] })],
)

/**
 * What comebacks showed about each facet (m, learned: see learn-model.ts): how often it was
 * compared, how often it had changed, and how often the change kept the value's structure.
 * Weighted counts: a comeback the token confirms counts whole, one the fingerprint found by its
 * posterior.
 */
export const facetChanges = pgTable('facet_changes', {
  facet: text('facet').primaryKey(),
  observed: real('observed').notNull().default(0),
  changed: real('changed').notNull().default(0),
  close: real('close').notNull().default(0),
})

/**
 * How each facet compares between two different stored devices (u, measured on sampled pairs:
 * see learn-model.ts): pairs compared, how many differed, and how many were close without being
 * equal.
 */
export const facetPairs = pgTable('facet_pairs', {
  facet: text('facet').primaryKey(),
  pairs: real('pairs').notNull().default(0),
  differed: real('differed').notNull().default(0),
  close: real('close').notNull().default(0),
})

/**
 * How long before the last learning pass the stored visitors were last seen (u of the recency
 * evidence, identification/recency.ts; measured by learn-model.ts): counted visitors per bucket.
 */
export const lastSeenShares = pgTable('last_seen_shares', {
  bucket: integer('bucket').primaryKey(),
  visitors: real('visitors').notNull().default(0),
})

/**
 * How long after their visitor's previous visit confirmed comebacks came (m of the recency evidence,
 * learned by learn-model.ts from token comebacks, bounded as change rates are): comebacks per bucket
 * of identification/recency.ts.
 */
export const returnGaps = pgTable('return_gaps', {
  bucket: integer('bucket').primaryKey(),
  comebacks: real('comebacks').notNull().default(0),
})

/**
 * An analyst's judgement of a visitor (fraud or good): the Server API and webhooks carry it, /v4
 * answers it as `suspect` where the integrator set none, and the sign-up rules use it. Deleted with
 * the visitor (a forget).
 */
export const visitorLabels = pgTable('visitor_labels', {
  visitorId: text('visitor_id')
    .primaryKey()
    .references(() => visitors.id, { onDelete: 'cascade' }),
  label: text('label').$type<'fraud' | 'good'>().notNull(),
  operator: text('operator').notNull(),
  labelledAt: timestamptz('labelled_at').notNull().default(sql`now()`),
})
