import 'server-only'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { Column, type DriverValueDecoder, is, noopDecoder, SQL, sql } from 'drizzle-orm'
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types'
import { getEnv } from '../env'
import { processWide } from '../process-wide'
import { lockDataDir } from './lock-data-dir'
import * as schema from './schema'
import { toIsoTimestamp } from './schema/timestamptz'

/** The one database type the rest of the server sees; which engine runs stays in this file. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>

export interface DatabaseHandle {
  db: Database
  engine: 'pglite' | 'postgres'
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** postgres://… URL; when absent the embedded PGlite database is used. */
  url?: string
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  dataDir?: string
  /** Sees every statement the app runs after migration, with its parameters (tests of query plans). */
  onQuery?: (query: string, params: unknown[]) => void
}

const migrationsFolder = path.join(process.cwd(), 'src/server/db/migrations')
// Serialises migrations when several app servers start at once over one PostgreSQL.
const MIGRATION_LOCK_ID = 0x7e55e7a

/** Opens a database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const logger = options.onQuery && { logQuery: options.onQuery }
  return options.url ? openPostgres(options.url, logger) : openPglite(options.dataDir ?? 'memory://', logger)
}

type QueryLogger = { logQuery(query: string, params: unknown[]): void } | undefined

async function openPglite(dataDir: string, logger: QueryLogger): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  const inMemory = dataDir.startsWith('memory://')
  // One process per directory: a second PostgreSQL over the same files corrupts them.
  const release = inMemory ? () => {} : lockDataDir(path.resolve(dataDir))
  let client: InstanceType<typeof PGlite> | undefined
  try {
    client = await PGlite.create(inMemory ? dataDir : path.resolve(dataDir))
    await migrate(drizzle({ client, schema }), { migrationsFolder })
  } catch (error) {
    // The open's own error is the one to report; a failed close must not hold the lock.
    await client?.close().catch(() => undefined)
    release()
    throw error
  }
  const opened = client
  return {
    db: drizzle({ client: opened, schema, ...(logger && { logger }) }),
    engine: 'pglite',
    close: async () => {
      try {
        await opened.close()
      } finally {
        release()
      }
    },
  }
}

async function openPostgres(url: string, logger: QueryLogger): Promise<DatabaseHandle> {
  const { Pool } = await import('pg')
  const { drizzle } = await import('drizzle-orm/node-postgres')
  const { migrate } = await import('drizzle-orm/node-postgres/migrator')
  // Idle connections stay open: a new one first loads the description of every day table and its
  // indexes (about 120 ms at 98 days) and plans its statements afresh, which node-postgres's default
  // (close after 10 idle seconds) made every quiet spell's first requests pay; the webhook worker's
  // poll keeps only one connection busy. Measured with nothing else on the pool: a look-up after
  // 11 s idle about 300 ms before, 40–80 ms after (docs/benchmarks.md). TCP keep-alive finds a
  // connection that a NAT or firewall dropped while it sat idle, rather than a query waiting on it.
  // No JIT compilation: Tessera's statements are short reads and writes, and a plan over every day
  // table can cost more than PostgreSQL's JIT threshold however little it reads. At 3 M events each
  // /v4 search's context read (ten events' first and previous visits) compiled 4 106 functions, 2.0 s,
  // for 9 ms of work (docs/benchmarks.md). Set on each new connection before the pool hands it out
  // (awaited: a statement sent beside the caller's first would queue on the client, which pg
  // deprecates), rather than as a startup option, which connection poolers such as PgBouncer refuse.
  const pool = new Pool({
    connectionString: url,
    max: 10,
    idleTimeoutMillis: 0,
    keepAlive: true,
    keepAliveInitialDelayMillis: 30_000,
    // Awaited by the pool: a connection that fails here is ended and its error given to the caller.
    // Only a server without the setting (PostgreSQL before 11: 42704, unrecognized parameter) is
    // served anyway, as it has no JIT to turn off.
    onConnect: async (client) => {
      await client.query('set jit = off').catch((error: Error & { code?: string }) => {
        if (error.code !== '42704') throw error
        console.warn(`PostgreSQL: jit not set off: ${error.message}`)
      })
    },
  })
  // An idle connection dropped by the server (restart, failover) must not crash the process;
  // the pool replaces it on the next query.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`))
  const connection = await pool.connect()
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
    await migrate(drizzle({ client: connection, schema }), { migrationsFolder })
    // Events by UTC day (migration 0021, event-partitions.ts), PostgreSQL only: converted once, and
    // the coming week's day tables made at every start.
    await connection.query('select tessera_partition_events()')
  } catch (error) {
    connection.release()
    await pool.end()
    throw error
  }
  await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID])
  connection.release()
  const db = drizzle({ client: pool, schema, ...(logger && { logger }) })
  return { db, engine: 'postgres', close: () => pool.end() }
}

/** Where the process-wide database is kept while it opens and after (one per process). */
const databaseSlot = () => processWide('database', (): { opening?: Promise<DatabaseHandle> } => ({}))

/** The process-wide database from the environment, opened and migrated on first use. */
export function getDatabase(): Promise<DatabaseHandle> {
  // One per process: the same PGlite directory must never be opened twice.
  const slot = databaseSlot()
  if (slot.opening) return slot.opening
  const env = getEnv()
  const opening = openDatabase({ url: env.DATABASE_URL, dataDir: env.TESSERA_DATA_DIR })
  slot.opening = opening
  // A failed start must not be cached: the next request tries again.
  opening.catch(() => {
    if (slot.opening === opening) slot.opening = undefined
  })
  return opening
}

/**
 * Closes the process-wide database when it was opened (a server that stops: PGlite writes its
 * files out and releases the data directory; PostgreSQL's connections end). Later uses open it again.
 */
export async function closeDatabase(): Promise<void> {
  const slot = databaseSlot()
  const opening = slot.opening
  if (!opening) return
  slot.opening = undefined
  const handle = await opening.catch(() => undefined)
  await handle?.close()
}

/** Shorthand for route handlers and server components. */
export async function getDb(): Promise<Database> {
  return (await getDatabase()).db
}

/**
 * What a raw query selects: each answer field's name and the column or typed expression it reads
 * (`sql<number>\`count(*)::int\``). The select list and the row type are both built from it, so a
 * row type cannot name a field the query does not select, nor miss one it does.
 */
export type SelectList = Record<string, Column | SQL>
/** The row a select list reads: a column's type from the schema, an expression's from its `sql<T>`. */
export type RowOf<List extends SelectList> = SelectResultFields<List>
/** Only the builder makes a Date of a column (rate_limits.expire): a raw read of one does not compile. */
type WithoutDateColumns<List extends SelectList> = {
  [Name in keyof List]: List[Name] extends Column
    ? List[Name]['_']['data'] extends Date
      ? never
      : List[Name]
    : List[Name]
}

/**
 * Rows of a raw query whose select list is `columns` (`query` places it: `select ${select} from …`),
 * each field named after its key. Server code reads raw SQL through this; a column is read as its
 * schema type says (the drivers parse integers, reals, booleans, arrays and JSON as the builder does,
 * and timestamps are read below).
 */
export function selectRows<List extends SelectList>(
  db: Database,
  columns: List & WithoutDateColumns<List>,
  query: (select: SQL) => SQL,
  options: { prepared?: boolean } = {},
): Promise<RowOf<List>[]> {
  const select = sql.join(
    Object.entries(columns).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`),
    sql`, `,
  )
  // A packed column (../db/packed-json.ts) is bytes to the drivers, and an expression may name its
  // own decoder (`sql\`…\`.mapWith(…)`): read either as the builder does.
  const decoded: [string, (stored: unknown) => unknown][] = []
  for (const [name, field] of Object.entries(columns as SelectList)) {
    if (is(field, Column) && field.getSQLType() === 'bytea')
      decoded.push([
        name,
        (stored) => (stored instanceof Uint8Array ? field.mapFromDriverValue(stored) : stored),
      ])
    const decoder = is(field, SQL)
      ? (field as SQL & { decoder?: DriverValueDecoder<unknown, unknown> }).decoder
      : undefined
    if (decoder && decoder !== noopDecoder)
      decoded.push([name, (stored) => decoder.mapFromDriverValue(stored)])
  }
  if (decoded.length === 0) return queryRows<RowOf<List>>(db, query(select), options)
  return queryRows<Record<string, unknown>>(db, query(select), options).then((rows) => {
    for (const row of rows)
      for (const [name, decode] of decoded)
        if (row[name] !== null && row[name] !== undefined) row[name] = decode(row[name])
    return rows as RowOf<List>[]
  })
}

/** PostgreSQL types an `unnest` input column may have (each is sent as an array of it). */
type InputType = 'text' | 'jsonb' | 'bytea' | 'boolean' | 'int' | 'real' | 'timestamptz'

/** An `unnest` input's columns, name to its type and how each row gives its value. */
export type InputColumns<Row> = Record<string, readonly [type: InputType, value: (row: Row) => unknown]>

/**
 * Rows as a table for one statement: `unnest(values₁::type₁[], …) as alias(name₁, …)`, one array per
 * column of `columns`, so a column's name, type and values are written once and cannot fall out of
 * line.
 */
export function unnestRows<Row>(rows: readonly Row[], columns: InputColumns<Row>, alias: string) {
  const entries = Object.entries(columns)
  const names = sql.raw(entries.map(([name]) => name).join(', '))
  const arrays = sql.join(
    entries.map(([, [type, value]]) => sql`${sql.param(rows.map(value))}::${sql.raw(type)}[]`),
    sql`, `,
  )
  return sql`unnest(${arrays}) as ${sql.raw(alias)}(${names})`
}

// Both drivers report each answer column's type; Drizzle leaves timestamps as PostgreSQL's text.
const TIMESTAMPTZ = 1184
const TIMESTAMP = 1114

/**
 * Rows of a raw SQL query, every timestamp column read as ISO 8601 (as the schema's timestamptz
 * columns are): the one place a raw answer's moments are parsed. The row type is the caller's
 * promise: tests' own reads; server code goes through selectRows.
 */
export async function queryRows<Row>(db: Database, query: SQL, { prepared = false } = {}): Promise<Row[]> {
  const result: unknown = prepared ? await executePrepared(db, query) : await db.execute(query)
  if (!isQueryResult(result)) throw new Error('The database answered a query without rows.')
  const moments = result.fields.filter(
    (field) => field.dataTypeID === TIMESTAMPTZ || field.dataTypeID === TIMESTAMP,
  )
  if (moments.length > 0) {
    for (const row of result.rows) {
      for (const { name, dataTypeID } of moments) {
        const value = row[name]
        if (typeof value === 'string') row[name] = toIsoTimestamp(value, dataTypeID === TIMESTAMPTZ)
      }
    }
  }
  // The rows are the driver's own objects; their shape is what the query selected.
  return result.rows as Row[]
}

const dialect = new PgDialect()

/**
 * Runs `query` as a prepared statement named after its text, which each connection plans for the
 * parameters it is given a few times (five), then keeps one generic plan for whenever that costs no
 * more (PostgreSQL's plan cache). For reads of events that no constant time bound narrows to a few
 * days: planning one of those weighs every day's table and its indexes (15 ms and more with 90
 * days), which costs more than running it, and its plan is the same whatever the parameters; a
 * generic plan prunes the days when it runs. A connection keeps every statement it prepared, so
 * only the first MAX_PREPARED texts are prepared (a search's filters combine into many); later ones
 * run as plain statements. The embedded database ignores the name.
 */
function executePrepared(db: Database, query: SQL): Promise<unknown> {
  const compiled = dialect.sqlToQuery(query)
  // The mark tells the query-plan test which plan to check.
  const text = `${PREPARED_MARK} ${compiled.sql}`
  const name = `tessera_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`
  const names = processWide('prepared statements', () => new Set<string>())
  if (!names.has(name)) {
    if (names.size >= MAX_PREPARED) return db.execute(query)
    names.add(name)
  }
  return db._.session.prepareQuery({ sql: text, params: compiled.params }, undefined, name, false).execute()
}

/**
 * Runs `read` in a transaction whose prepared statements take their generic plan from the first
 * call, where PostgreSQL would plan each for its parameters five times per connection first. For a
 * read whose every plan weighs every day's table (subqueries correlated with the row they are for):
 * on 98 days the first plan took 350 ms and each of the next four about 100 ms, against 7 ms to run
 * the generic one (the /v4 context read, docs/benchmarks.md).
 */
export function withGenericPlans<T>(db: Database, read: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`)
    return read(tx)
  })
}

/** How many statement texts a process prepares (each connection keeps those it ran). */
const MAX_PREPARED = 200
/** How a prepared statement's text begins. */
export const PREPARED_MARK = '/* prepared */'

interface QueryResult {
  rows: Record<string, unknown>[]
  fields: { name: string; dataTypeID: number }[]
}

function isQueryResult(result: unknown): result is QueryResult {
  return (
    typeof result === 'object' &&
    result !== null &&
    'rows' in result &&
    Array.isArray(result.rows) &&
    'fields' in result &&
    Array.isArray(result.fields)
  )
}

/** Whether PostgreSQL aborted the statement's transaction to break a deadlock (SQLSTATE 40P01): run it again. */
export function isDeadlock(error: unknown): boolean {
  for (let current = error; typeof current === 'object' && current !== null; ) {
    if ('code' in current && current.code === '40P01') return true
    current = 'cause' in current ? current.cause : undefined
  }
  return false
}

/** The constraint a failed statement violated (both engines report it on the driver's error). */
export function violatedConstraint(error: unknown): string | undefined {
  for (let current = error; typeof current === 'object' && current !== null; ) {
    if ('constraint' in current && typeof current.constraint === 'string') return current.constraint
    current = 'cause' in current ? current.cause : undefined
  }
  return undefined
}
