// The throwaway PostgreSQL of bench:scale, configured as a production server with a few GB of data
// would be rather than with initdb's defaults (128 MB of shared buffers): settings any operator's
// first tuning pass gives, then a restart for the ones that need it.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import pg from 'pg'

const SETTINGS = {
  shared_buffers: '2GB',
  effective_cache_size: '12GB',
  // Solid-state storage: a random read costs little more than a sequential one.
  random_page_cost: '1.1',
  max_wal_size: '8GB',
  checkpoint_timeout: '15min',
}

/** Applies SETTINGS and restarts the server; returns its data directory. */
export async function tunePostgres({ bin, url }: { bin: string; url: string }): Promise<string> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  let dataDirectory: string
  try {
    for (const [name, value] of Object.entries(SETTINGS))
      await client.query(`alter system set ${name} = '${value}'`)
    const { rows } = await client.query<{ data_directory: string }>('show data_directory')
    dataDirectory = rows[0]?.data_directory ?? ''
  } finally {
    await client.end()
  }
  // pg_ctl restart keeps the options of the last start (postmaster.opts): port, socket folder, fsync.
  const asRoot = process.getuid?.() === 0
  // A log file, or the server would hold this process's pipes open.
  const args = [
    '-D',
    dataDirectory,
    '-l',
    path.join(dataDirectory, '..', 'server.log'),
    '-w',
    '-m',
    'fast',
    'restart',
  ]
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', `${bin}/pg_ctl`, ...args], { encoding: 'utf8' })
    : spawnSync(`${bin}/pg_ctl`, args, { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`pg_ctl restart failed: ${result.stderr || result.stdout}`)
  return dataDirectory
}

export const POSTGRES_SETTINGS = SETTINGS
