import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { tablesContaining } from '../../../tests/support/personal-data'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { createSite } from '../sites/create-site'
import { createSealingKey } from './create-sealing-key'
import { clearSealingKeyCache, findSealingKey } from './find-sealing-key'
import { removeSealingKey } from './remove-sealing-key'

describeOnEachEngine('sealing keys', (handle) => {
  it('keep no readable copy in the database when TESSERA_ENCRYPTION_KEY is set', async () => {
    const db = handle.db
    const encryptionKey = randomBytes(32)
    const site = await createSite({ db, name: 'Sealed', allowedOrigins: [] })
    const created = await createSealingKey({ db, siteId: site.id, operator: 'admin', encryptionKey })
    const key = Buffer.from(created.key, 'base64')
    const needles = [created.key, key.toString('base64url'), key.toString('hex')]
    expect(await tablesContaining(db, needles)).toEqual([])
    expect((await findSealingKey({ db, siteId: site.id, encryptionKey }))?.key).toEqual(key)
    // Read with another encryption key, the stored key opens nothing: no key, so no sealing.
    clearSealingKeyCache()
    expect(await findSealingKey({ db, siteId: site.id, encryptionKey: randomBytes(32) })).toBeUndefined()
    clearSealingKeyCache()
  })

  it('seal with the key they said seals, whichever transaction began first', async () => {
    const db = handle.db
    const site = await createSite({ db, name: 'Raced', allowedOrigins: [] })
    // One creation's transaction begins, then waits (an event loop busy elsewhere) while another
    // creation runs to its end; it then makes the second key. On PostgreSQL the two overlap; the
    // embedded database runs them one after the other.
    let other: Promise<Awaited<ReturnType<typeof createSealingKey>>> | undefined
    const late = await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      other = createSealingKey({ db, siteId: site.id, operator: 'admin' })
      // On PostgreSQL the other creation ends meanwhile; the embedded database's one connection is
      // this transaction's, so there it waits for it.
      await Promise.race([other, new Promise((resolve) => setTimeout(resolve, 500))])
      return createSealingKey({ db: tx as unknown as typeof db, siteId: site.id, operator: 'admin' })
    })
    const early = await (other as NonNullable<typeof other>)
    const sealing = [late, early].find((key) => key.sealing)
    expect([late, early].filter((key) => key.sealing)).toHaveLength(1)
    clearSealingKeyCache()
    expect((await findSealingKey({ db, siteId: site.id }))?.id).toBe(sealing?.id)
  })

  it('never make a third key, even when asked twice at once', async () => {
    const db = handle.db
    const site = await createSite({ db, name: 'Busy', allowedOrigins: [] })
    const attempts = await Promise.allSettled(
      [1, 2, 3, 4].map(() => createSealingKey({ db, siteId: site.id, operator: 'admin' })),
    )
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(2)
    const sealing = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []))
    expect(sealing.map((key) => key.sealing).sort()).toEqual([false, true])
    const first = sealing.find((key) => key.sealing)
    expect((await findSealingKey({ db, siteId: site.id }))?.id).toBe(first?.id)
    await removeSealingKey({ db, keyId: first?.id ?? '', operator: 'admin' })
    expect((await findSealingKey({ db, siteId: site.id }))?.id).toBe(sealing.find((key) => !key.sealing)?.id)
  })
})
