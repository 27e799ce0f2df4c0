import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { ensureDefaultSite } from './ensure-default-site'
import { clearSiteCache, findSite } from './find-site'

describeOnEachEngine('the default site', (handle) => {
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
