import { bigserial, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core'
import { bytea } from './bytea'
import { timestamptz } from './timestamptz'

/**
 * The console's figures, kept as identifications and sign-up decisions are stored (triggers of
 * migration 0020), so the overview never scans events: counts per site, UTC hour, network type
 * and country. `shard` spreads concurrent writers over rows (their connection's), so no row is
 * every writer's; readers sum the shards. '' stands for no site and for an unplaced address.
 */
export const eventRollups = pgTable(
  'event_rollups',
  {
    siteKey: text('site_key').notNull(),
    hour: timestamptz('hour').notNull(),
    networkType: text('network_type').notNull(),
    country: text('country').notNull(),
    shard: smallint('shard').notNull(),
    identifications: integer('identifications').notNull().default(0),
    returned: integer('returned').notNull().default(0),
    bots: integer('bots').notNull().default(0),
    allow: integer('allow').notNull().default(0),
    challenge: integer('challenge').notNull().default(0),
    deny: integer('deny').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.hour, table.siteKey, table.networkType, table.country, table.shard] }),
  ],
)

/**
 * Distinct visitors per site and UTC hour, as mergeable sketches (console/visitor-sketch.ts): each
 * stored batch appends its own, and compaction merges an hour's into one.
 */
export const visitorSketches = pgTable(
  'visitor_sketches',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteKey: text('site_key').notNull(),
    hour: timestamptz('hour').notNull(),
    sketch: bytea('sketch').notNull(),
  },
  (table) => [index('visitor_sketches_hour').on(table.hour, table.siteKey)],
)
