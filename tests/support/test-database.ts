import { randomBytes } from 'node:crypto'
import { Client } from 'pg'
import { afterAll, beforeAll, describe, inject } from 'vitest'
import { type Database, type DatabaseHandle, type DatabaseOptions, openDatabase } from '@/server/db/client'

export type Engine = 'pglite' | 'postgres'

/**
 * A fresh, migrated database for one test suite: an in-memory PGlite, or a new database on the
 * throwaway PostgreSQL server started by the Vitest global setup.
 */
export async function openTestDatabase(
  engine: Engine,
  postgresUrl: string,
  options: Pick<DatabaseOptions, 'onQuery'> = {},
): Promise<DatabaseHandle & { url?: string }> {
  if (engine === 'pglite') return openDatabase({ dataDir: 'memory://', ...options })
  const name = `tessera_test_${randomBytes(6).toString('hex')}`
  const admin = new Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ url: url.toString(), ...options })
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

/** A suite's database, opened before its first test and closed after its last. */
export interface SuiteDatabase {
  readonly db: Database
  readonly engine: Engine
  /** The PostgreSQL database's URL, for tests that start a second app server on it. */
  readonly url: string | undefined
}

/**
 * Runs `suite` on an in-memory PGlite and, when the Vitest global setup started one, on a fresh
 * database of the throwaway PostgreSQL server: the storage a deployment may run on, both tested.
 */
export function describeOnEachEngine(title: string, suite: (database: SuiteDatabase) => void) {
  const postgresUrl = inject('postgresUrl')
  const engines: Engine[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite']
  describe.each(engines)(`${title} on %s`, (engine) => {
    let opened: (DatabaseHandle & { url?: string }) | undefined
    const opening = () => {
      if (!opened) throw new Error('The suite database is opened in beforeAll')
      return opened
    }
    beforeAll(async () => {
      opened = await openTestDatabase(engine, postgresUrl)
    })
    afterAll(() => opened?.close())
    suite({
      get db() {
        return opening().db
      },
      engine,
      get url() {
        return opening().url
      },
    })
  })
}
