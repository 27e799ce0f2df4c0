import { expect, it } from 'vitest'
import { defaultSignupPolicy } from '@/contracts/signup-policy'
import { changeEventSignals } from '../../../../tests/support/event-signals'
import { syntheticDevice } from '../../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../../tests/support/test-database'
import { identifyVisitor } from '../../identification/identify-visitor'
import { createSite } from '../../sites/create-site'
import { ensureDefaultSite } from '../../sites/ensure-default-site'
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
    await changeEventSignals(database.db, event.requestId, (signals) => ({
      ...signals,
      bot: { result: 'bad', reasons: [] },
    }))
    return decideSignup({
      db: database.db,
      input: { requestId: event.requestId, fields: signupFields() },
      context: { ip },
    })
  }

  it('decides the form site’s sign-ups by its own rules until it goes back to the default, and refuses another site’s identification', async () => {
    const { db } = database
    clearSiteCache()
    const { publicKey: home } = await ensureDefaultSite({ db, origins: [] })
    clearSiteCache()
    const blog = await createSite({ db, name: 'Another site', allowedOrigins: [] })
    const quiet = { ...defaultSignupPolicy, agentProofRule: 'off', suspectScoreRule: 'off' } as const
    await updateSignupPolicy({ db, operator: 'admin', policy: quiet })
    expect(await readSitePolicy(db, home)).toMatchObject({ inherited: true, policy: { botRule: 'deny' } })
    expect((await botSignup(home)).outcome).toBe('deny')

    await updateSignupPolicy({ db, operator: 'admin', policy: { ...quiet, botRule: 'off' }, site: home })
    expect(await readSitePolicy(db, home)).toMatchObject({ inherited: false, policy: { botRule: 'off' } })
    expect(await readSitePolicy(db, blog.publicKey)).toMatchObject({
      inherited: true,
      policy: { botRule: 'deny' },
    })
    expect((await botSignup(home)).outcome).toBe('allow')

    // Tried on the site's sign-ups (both bots), against its own rules (which allow them), the
    // default's bot rule would deny both.
    const preview = await previewPolicy({ db, candidate: quiet, site: home })
    expect(preview.changes).toMatchObject([{ from: 'allow', to: 'deny', count: 2 }])
    // The default rules are not tried on a site that has its own.
    expect((await previewPolicy({ db, candidate: quiet })).decisions).toBe(0)

    // An identification made under another site's key (a script may send any) does not choose the rules.
    const refused = await httpFailure(botSignup(blog.publicKey))
    expect([refused.status, refused.message]).toEqual([
      400,
      'The device check was made for another site; reload this page and try again.',
    ])

    await inheritDefaultPolicy({ db, operator: 'admin', site: home })
    expect((await botSignup(home)).outcome).toBe('deny')
    expect((await httpFailure(inheritDefaultPolicy({ db, operator: 'admin', site: home }))).status).toBe(409)
    const unknown = await httpFailure(
      updateSignupPolicy({ db, operator: 'admin', policy: quiet, site: 'pk_nobody' }),
    )
    expect(unknown.status).toBe(404)
  })
})
