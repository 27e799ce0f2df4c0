import { randomBytes } from 'node:crypto'
import { Client } from 'pg'
import { type DatabaseHandle, openDatabase } from './client'

export type Engine = 'pglite' | 'postgres'

/**
 * A fresh, migrated database for one test suite: an in-memory PGlite, or a new database on the
 * throwaway PostgreSQL server started by the Vitest global setup.
 */
export async function openTestDatabase(
  engine: Engine,
  postgresUrl: string,
): Promise<DatabaseHandle & { url?: string }> {
  if (engine === 'pglite') return openDatabase({ dataDir: 'memory://' })
  const name = `tessera_test_${randomBytes(6).toString('hex')}`
  const admin = new Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ url: url.toString() })
  return {
    ...handle,
    // For tests that need a second app server on the same database.
    url: url.toString(),
    async close() {
      await handle.close()
      const cleanup = new Client({ connectionString: postgresUrl })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    },
  }
}
