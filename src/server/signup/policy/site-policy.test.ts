import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { defaultSignupPolicy } from '@/contracts/signup-policy'
import { syntheticDevice } from '../../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../../tests/support/test-database'
import { identifyVisitor } from '../../identification/identify-visitor'
import { createSite } from '../../sites/create-site'
import { clearSiteCache } from '../../sites/find-site'
import { decideSignup } from '../decide-signup'
import { httpFailure, signupFields } from '../test-signup'
import { previewPolicy } from './preview-policy'
import { readSitePolicy } from './read-policy'
import { inheritDefaultPolicy, updateSignupPolicy } from './update-policy'

let seed = 9700

describeOnEachEngine('sign-up rules per site, with a default the sites inherit', (database) => {
  /** A sign-up on `siteKey` from a device whose identification shows a bad bot. */
  async function botSignup(siteKey: string) {
    const ip = '198.51.100.140'
    const event = await identifyVisitor({
      db: database.db,
      input: { components: syntheticDevice(++seed), siteKey },
      context: { ip, userAgent: 'test' },
    })
    await database.db.execute(
      sql`update events set signals = jsonb_set(signals, '{bot}', '{"result":"bad"}') where request_id = ${event.requestId}`,
    )
    return decideSignup({
      db: database.db,
      input: { requestId: event.requestId, fields: signupFields() },
      context: { ip },
    })
  }

  it('decides a site’s sign-ups by its own rules, the others’ by the default, and goes back to the default', async () => {
    const { db } = database
    clearSiteCache()
    const shop = await createSite({ db, name: 'Own rules shop', allowedOrigins: [] })
    const blog = await createSite({ db, name: 'Default rules blog', allowedOrigins: [] })
    const quiet = { ...defaultSignupPolicy, agentProofRule: 'off', suspectScoreRule: 'off' } as const
    await updateSignupPolicy({ db, operator: 'admin', policy: quiet })
    await updateSignupPolicy({
      db,
      operator: 'admin',
      policy: { ...quiet, botRule: 'off' },
      site: shop.publicKey,
    })

    expect(await readSitePolicy(db, blog.publicKey)).toMatchObject({
      inherited: true,
      policy: { botRule: 'deny' },
    })
    expect(await readSitePolicy(db, shop.publicKey)).toMatchObject({
      inherited: false,
      policy: { botRule: 'off' },
    })
    expect((await botSignup(shop.publicKey)).outcome).toBe('allow')
    expect((await botSignup(blog.publicKey)).outcome).toBe('deny')

    // Tried on the shop's own sign-ups, the default's bot rule would have denied its one.
    const preview = await previewPolicy({ db, candidate: quiet, site: shop.publicKey })
    expect(preview.decisions).toBe(1)
    expect(preview.changes).toMatchObject([{ from: 'allow', to: 'deny', count: 1 }])

    await inheritDefaultPolicy({ db, operator: 'admin', site: shop.publicKey })
    expect((await botSignup(shop.publicKey)).outcome).toBe('deny')
    expect(
      (await httpFailure(inheritDefaultPolicy({ db, operator: 'admin', site: shop.publicKey }))).status,
    ).toBe(409)
    const unknown = await httpFailure(
      updateSignupPolicy({ db, operator: 'admin', policy: quiet, site: 'pk_nobody' }),
    )
    expect(unknown.status).toBe(404)
  })
})
