import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import {
  type Database,
  type DatabaseHandle,
  getDatabase,
  openDatabase,
  queryRows,
} from '../../src/server/db/client'
import * as schema from '../../src/server/db/schema'
import { processWide } from '../../src/server/process-wide'

/**
 * A fresh database for each test, in the slot that route handlers read (`getDb()`), so a test of a
 * handler sees only the rows it made and can run alone or in any order.
 *
 * A new PGlite costs seconds (the WebAssembly Postgres boots, then 13 migrations run) and
 * `clone()` about as much, so one in-memory PGlite per test file is migrated once; each test then
 * gets it with every table emptied (TRUNCATE … RESTART IDENTITY, a few milliseconds), under a new
 * Drizzle instance, with every process-wide cache in front of it forgotten:
 * - sites (`siteCache`, find-site.ts) and sealing keys (`sealingKeyCache`, find-sealing-key.ts), 5 s each;
 * - server secrets (`serverSecrets`, server-secret.ts): they live in the settings table just emptied;
 * - population counts (`populationCache`) and identify queues (`identifyQueues`), kept per Database
 *   object, as are the rate limiters (rate-limiter.ts): a new Database object starts them afresh.
 * Everything kept through `processWide` (process-wide.ts) is dropped, so a cache added there later
 * is covered too.
 */

interface Template {
  client: PGlite
  handle: DatabaseHandle
  tables: string[]
}

// Vitest loads this module once per test file (isolated workers): one template per file.
let template: Promise<Template> | undefined

async function migrateTemplate(): Promise<Template> {
  const handle = await openDatabase({ dataDir: 'memory://' })
  if (!('$client' in handle.db)) throw new Error('openDatabase no longer answers a PGlite Drizzle instance')
  const client = handle.db.$client as PGlite
  const rows = await queryRows<{ name: string }>(
    handle.db,
    sql`select format('%I.%I', schemaname, tablename) as name from pg_tables
        where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') order by 1`,
  )
  const tables = rows.map((row) => row.name)
  // Emptying tables restores a fresh database only while migrations create no rows: say so if one does.
  for (const table of tables) {
    const [row] = await queryRows<{ n: number }>(
      handle.db,
      sql.raw(`select count(*)::int as n from ${table}`),
    )
    if (row?.n)
      throw new Error(`A migration seeds ${table}: teach freshProcessDatabase() to keep those rows.`)
  }
  return { client, handle, tables }
}

/** Forgets everything kept process-wide (process-wide.ts keeps it on globalThis as Symbol.for('tessera.*')). */
function forgetProcessWideState() {
  const store = globalThis as Record<symbol, unknown>
  for (const key of Object.getOwnPropertySymbols(store))
    if (Symbol.keyFor(key)?.startsWith('tessera.')) delete store[key]
}

/**
 * Empties the test file's database, forgets the caches in front of it and makes it the one
 * `getDb()` answers, under a Drizzle instance of its own. Call it in `beforeEach`.
 */
export async function freshProcessDatabase(): Promise<Database> {
  template ??= migrateTemplate()
  const { client, handle, tables } = await template
  await client.exec(`truncate table ${tables.join(', ')} restart identity cascade`)
  forgetProcessWideState()
  const db: Database = drizzle({ client, schema })
  const fresh: DatabaseHandle = { ...handle, db }
  // The slot getDatabase() keeps (client.ts); checked below, so a change there fails loudly here.
  processWide('database', (): { opening?: Promise<DatabaseHandle> } => ({ opening: Promise.resolve(fresh) }))
  if ((await getDatabase()).db !== db)
    throw new Error(
      'getDatabase() no longer reads processWide("database").opening: update process-database.ts',
    )
  return db
}

/** Closes the test file's database and empties the slot. Call it in `afterAll`. */
export async function closeProcessDatabase() {
  const opened = template
  template = undefined
  forgetProcessWideState()
  if (opened) await (await opened).handle.close()
}
