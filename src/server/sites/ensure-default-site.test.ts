import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type DatabaseHandle, queryRows } from '../db/client'
import { type Engine, openTestDatabase } from '../db/test-database'
import { ensureDefaultSite } from './ensure-default-site'
import { clearSiteCache, findSite } from './find-site'

const postgresUrl = inject('postgresUrl')
const engines: Engine[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite']

describe.each(engines)('the default site on %s', (engine) => {
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = await openTestDatabase(engine, postgresUrl)
  })
  afterAll(() => handle.close())

  it('is created once, keeps its key and gains configured origins', async () => {
    const first = await ensureDefaultSite({ db: handle.db, origins: ['https://shop.example'] })
    expect(first.publicKey).toMatch(/^pk_[\w-]{16}$/)
    // Several servers starting at once with a new origin configured.
    const again = await Promise.all([
      ensureDefaultSite({ db: handle.db, origins: ['https://shop.example', 'http://localhost:8080'] }),
      ensureDefaultSite({ db: handle.db, origins: ['https://shop.example', 'http://localhost:8080'] }),
    ])
    expect(again.map((site) => site.publicKey)).toEqual([first.publicKey, first.publicKey])
    const [count] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from sites`)
    expect(count?.n).toBe(1)
    clearSiteCache()
    const site = await findSite({ db: handle.db, publicKey: first.publicKey })
    expect(site?.isDefault).toBe(true)
    expect(site?.allowedOrigins.sort()).toEqual(['http://localhost:8080', 'https://shop.example'])
    expect((await findSite({ db: handle.db }))?.publicKey).toBe(first.publicKey)
    expect(await findSite({ db: handle.db, publicKey: 'pk_unknown' })).toBeUndefined()
  })
})
