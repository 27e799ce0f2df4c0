import { sql } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { getDb, queryRows } from '../../src/server/db/client'
import { getServerSecret } from '../../src/server/settings/server-secret'
import { findSite } from '../../src/server/sites/find-site'
import { defaultSite, startedTessera } from '../support/console-factories'
import { closeProcessDatabase, freshProcessDatabase } from '../support/process-database'

afterAll(closeProcessDatabase)

async function count(table: string) {
  const [row] = await queryRows<{ n: number }>(
    await getDb(),
    sql.raw(`select count(*)::int as n from ${table}`),
  )
  return row?.n
}

describe('freshProcessDatabase', () => {
  beforeEach(async () => {
    await freshProcessDatabase()
  })

  it('is the database getDb() answers, migrated and empty', async () => {
    const db = await freshProcessDatabase()
    expect(await getDb()).toBe(db)
    expect(await count('sites')).toBe(0)
    expect(await count('operators')).toBe(0)
  })

  it('empties every table a test wrote and restarts their sequences', async () => {
    const db = await getDb()
    await startedTessera(db)
    const audit = sql`insert into settings_audit (key, operator, before, after) values ('k', 'admin', '{}', '{}') returning id`
    const [first] = await queryRows<{ id: number }>(db, audit)
    expect(await count('sites')).toBe(1)

    const fresh = await freshProcessDatabase()
    expect(fresh).not.toBe(db)
    expect(await count('sites')).toBe(0)
    expect(await count('operators')).toBe(0)
    const [again] = await queryRows<{ id: number }>(fresh, audit)
    expect(again?.id).toBe(first?.id)
  })

  it('forgets the site cache: a site found before is not found in the next database', async () => {
    const site = await defaultSite(await getDb())
    expect(await findSite({ db: await getDb(), publicKey: site.publicKey })).toMatchObject({ id: site.id })
    const db = await freshProcessDatabase()
    expect(await findSite({ db, publicKey: site.publicKey })).toBeUndefined()
    expect(await findSite({ db })).toBeUndefined()
  })

  it('forgets server secrets kept from the database before', async () => {
    const before = await getServerSecret(await getDb(), 'identity_secret')
    const db = await freshProcessDatabase()
    const after = await getServerSecret(db, 'identity_secret')
    expect(after).not.toBe(before)
    const [stored] = await queryRows<{ value: string }>(
      db,
      sql`select value from settings where key = 'identity_secret'`,
    )
    expect(stored?.value).toBe(after)
  })

  it('gives each database the same first operator, made once by start-up’s own code', async () => {
    const operator = sql`select id, username, password_hash from operators`
    await startedTessera(await getDb())
    const [made] = await queryRows<Record<string, string>>(await getDb(), operator)
    expect(made).toMatchObject({ username: 'admin', password_hash: expect.stringMatching(/^\$argon2id\$/) })
    const db = await freshProcessDatabase()
    await startedTessera(db)
    expect(await queryRows(db, operator)).toEqual([made])
  })
})
