import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, inject, it, vi } from 'vitest'
import { type Engine, openTestDatabase } from '../../../tests/support/test-database'
import { readSetting } from '../settings/read-setting'
import { writeSetting } from '../settings/write-setting'
import { type Database, openDatabase, queryRows, withGenericPlans } from './client'

const postgresUrl = inject('postgresUrl')
const engines: Engine[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite']

async function appliedMigrations(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const rows = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  )
  return rows[0]?.count
}

describe.each(engines)('storage on %s', (engine) => {
  it('applies every migration to a fresh database', async () => {
    const handle = await openTestDatabase(engine, postgresUrl)
    try {
      expect(handle.engine).toBe(engine)
      const journal = await import('./migrations/meta/_journal.json')
      expect(await appliedMigrations(handle.db)).toBe(journal.entries.length)
      const tables = await queryRows<{ name: string }>(
        handle.db,
        sql`select table_name as name from information_schema.tables where table_schema = 'public'`,
      )
      expect(tables.map((row) => row.name)).toContain('settings')
    } finally {
      await handle.close()
    }
  })

  it('writes, overwrites and reads a setting', async () => {
    const handle = await openTestDatabase(engine, postgresUrl)
    try {
      expect(await readSetting({ db: handle.db, key: 'greeting' })).toBeUndefined()
      await writeSetting({ db: handle.db, key: 'greeting', value: { text: 'hello' } })
      await writeSetting({ db: handle.db, key: 'greeting', value: { text: 'héllo ✓' } })
      expect(await readSetting({ db: handle.db, key: 'greeting' })).toEqual({ text: 'héllo ✓' })
    } finally {
      await handle.close()
    }
  })

  it.runIf(engine === 'postgres')('runs every pooled connection without JIT compilation', async () => {
    // The setting is sent before a connection is handed out, never queued beside the caller's first
    // statement (which node-postgres deprecates, warning once per process, so the warning itself
    // cannot be watched): every statement is checked for one queued ahead of it on its client.
    const { Client } = await import('pg')
    const query = Client.prototype.query
    const queuedBehind: string[] = []
    const spy = vi.spyOn(Client.prototype, 'query').mockImplementation(function (
      this: InstanceType<typeof Client> & { _queryQueue?: unknown[] },
      ...args: Parameters<typeof query>
    ) {
      if (!Array.isArray(this._queryQueue))
        throw new Error('pg no longer keeps _queryQueue: rewrite this check')
      if (this._queryQueue.length > 0)
        queuedBehind.push(String((args[0] as { text?: string }).text ?? args[0]))
      return (query as (...values: unknown[]) => unknown).apply(this, args)
    } as typeof query)
    const handle = await openTestDatabase(engine, postgresUrl)
    try {
      // Reads at once, so that the pool opens several connections: each one has it off.
      const settings = await Promise.all(
        Array.from({ length: 6 }, () =>
          queryRows<{ jit: string }>(handle.db, sql`select current_setting('jit') as jit, pg_sleep(0.05)`),
        ),
      )
      expect(settings.map((rows) => rows[0]?.jit)).toEqual(Array(6).fill('off'))
      expect(queuedBehind).toEqual([])
      const backends = await queryRows<{ count: number }>(
        handle.db,
        sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`,
      )
      expect(backends[0]?.count).toBeGreaterThan(1)
    } finally {
      spy.mockRestore()
      await handle.close()
    }
  })

  it('plans prepared reads generically inside withGenericPlans only', async () => {
    const handle = await openTestDatabase(engine, postgresUrl)
    const mode = async (db: Database) =>
      (await queryRows<{ mode: string }>(db, sql`select current_setting('plan_cache_mode') as mode`))[0]?.mode
    try {
      expect(await withGenericPlans(handle.db, mode)).toBe('force_generic_plan')
      // SET LOCAL: the connection goes back to the pool with PostgreSQL's own choice.
      for (let read = 0; read < 4; read++) expect(await mode(handle.db)).toBe('auto')
    } finally {
      await handle.close()
    }
  })
})

describe('embedded database on disk', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'tessera-pglite-'))
  // A nested path: PGlite only creates the last folder, openDatabase must create the rest.
  const dataDir = path.join(parent, 'nested', 'data')
  afterAll(() => rmSync(parent, { recursive: true, force: true }))

  it('keeps a written row across a restart and does not re-apply migrations', async () => {
    const first = await openDatabase({ dataDir })
    await writeSetting({ db: first.db, key: 'survives', value: [1, 2, 3] })
    const migrationsBefore = await appliedMigrations(first.db)
    await first.close()

    const reopened = await openDatabase({ dataDir })
    try {
      expect(await readSetting({ db: reopened.db, key: 'survives' })).toEqual([1, 2, 3])
      expect(await appliedMigrations(reopened.db)).toBe(migrationsBefore)
    } finally {
      await reopened.close()
    }
  })
})

describe.runIf(postgresUrl)('PostgreSQL start-up', () => {
  it('lets several app servers migrate the same database at once', async () => {
    const handle = await openTestDatabase('postgres', postgresUrl)
    try {
      const [current] = await queryRows<{ name: string }>(handle.db, sql`select current_database() as name`)
      const target = new URL(postgresUrl)
      target.pathname = `/${current?.name}`
      const servers = await Promise.all([1, 2, 3].map(() => openDatabase({ url: target.toString() })))
      await Promise.all(servers.map((server) => server.close()))
      const journal = await import('./migrations/meta/_journal.json')
      expect(await appliedMigrations(handle.db)).toBe(journal.entries.length)
    } finally {
      await handle.close()
    }
  })
})
