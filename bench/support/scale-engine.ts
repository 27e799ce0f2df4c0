// The database bench:scale loads and measures: a throwaway PostgreSQL, tuned as an operator would
// (the default), or the embedded database (BENCH_ENGINE=pglite), in the data directory the first
// app server then opens, as `npm start` runs without DATABASE_URL.
import pg from 'pg'
import { type DatabaseHandle, openDatabase } from '../../src/server/db/client'
import { findPostgresBin, startThrowawayPostgres } from '../../tests/support/throwaway-postgres'
import type { LoadClient } from './scale-load'
import { tunePostgres } from './scale-postgres'
import type { Defer } from './scale-servers'

export type ScaleEngine = 'postgres' | 'pglite'

export interface ScaleDatabase {
  /** The bench's own handle, migrated. On the embedded database only one process may hold it. */
  open(): Promise<DatabaseHandle>
  /** A connection for the loader (scale-load.ts). */
  connect(handle: DatabaseHandle): Promise<LoadClient>
  /** PostgreSQL: its URL and data directory (whose processes' CPU time the bench reads). */
  postgres?: { url: string; dataDirectory: string }
}

/** The loader's session settings on PostgreSQL: large sorts in memory, commits not waited for. */
const LOAD_SETTINGS = `set synchronous_commit = off; set work_mem = '256MB'; set maintenance_work_mem = '1GB'`
/**
 * The same on the embedded database, whose heap is WebAssembly's (a few GB at most, its buffer cache
 * included) and shared by the one session: index builds get a quarter of what PostgreSQL's do.
 */
const EMBEDDED_LOAD_SETTINGS = `set synchronous_commit = off; set work_mem = '64MB'; set maintenance_work_mem = '256MB'`

export async function startScaleDatabase({
  engine,
  port,
  embeddedDir,
  defer,
  keep,
  log,
}: {
  engine: ScaleEngine
  port: number
  /** Where the embedded database is made: the directory the first app server opens. */
  embeddedDir: string
  defer: Defer
  /** Leaves the loaded PostgreSQL running at the end. */
  keep: boolean
  log: (line: string) => void
}): Promise<ScaleDatabase> {
  if (engine === 'pglite') {
    return {
      open: () => openDatabase({ dataDir: embeddedDir }),
      async connect(handle) {
        const client = (handle.db as unknown as { $client: EmbeddedClient }).$client
        const connection: LoadClient = {
          async query<R>(text: string, params?: unknown[]) {
            // Statements with parameters go one at a time; a script of several has none.
            if (params?.length) return client.query<R>(text, params)
            const results = await client.exec(text)
            return { rows: (results.at(-1)?.rows ?? []) as R[] }
          },
          end: async () => undefined,
        }
        await connection.query(EMBEDDED_LOAD_SETTINGS)
        return connection
      },
    }
  }
  const bin = findPostgresBin()
  if (!bin) throw new Error('No PostgreSQL server binaries: apt-get install -y postgresql')
  const server = startThrowawayPostgres({ bin, port })
  let dataDirectory = ''
  defer(() =>
    keep
      ? log(`PostgreSQL left running (BENCH_KEEP=1): ${server.url}; stop it: pg_ctl -D ${dataDirectory} stop`)
      : server.stop(),
  )
  dataDirectory = await tunePostgres({ bin, url: server.url })
  return {
    postgres: { url: server.url, dataDirectory },
    open: () => openDatabase({ url: server.url }),
    async connect() {
      const client = new pg.Client({ connectionString: server.url })
      await client.connect()
      await client.query(LOAD_SETTINGS)
      return client
    },
  }
}

/** What the loader uses of a PGlite instance. */
interface EmbeddedClient {
  query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }>
  exec(text: string): Promise<{ rows: unknown[] }[]>
}
