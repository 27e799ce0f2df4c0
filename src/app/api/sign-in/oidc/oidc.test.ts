import { eq } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { changePassword } from '@/server/console/change-password'
import { beginOidcSignIn, OidcSignInError, oidcSettings, roleFromClaims } from '@/server/console/oidc'
import { readSession, SESSION_COOKIE } from '@/server/console/sessions'
import { signIn } from '@/server/console/sign-in'
import { changeRole, inviteOperator, readTeam } from '@/server/console/team'
import { type Database, getDb } from '@/server/db/client'
import { operatorInvitations, operators, settingsAudit } from '@/server/db/schema'
import { parseEnv } from '@/server/env'
import { OPERATOR_PASSWORD, startedTessera } from '../../../../../tests/support/console-factories'
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  signInAtProvider,
  startOidcProvider,
} from '../../../../../tests/support/oidc-provider'
import { closeProcessDatabase, freshProcessDatabase } from '../../../../../tests/support/process-database'
import { httpFailure } from '../../../../server/signup/test-signup'
import * as callback from './callback/route'
import * as start from './route'

// Sign-in with OpenID Connect against a real provider started here, through Tessera's two routes
// as a browser reaches them: its cookies kept, the provider's redirects followed.

const own = 'http://127.0.0.1:3000'
// The environment is read once, while the modules load: the provider's port is chosen before that.
const providerPort = vi.hoisted(() => {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  process.env.TESSERA_PUBLIC_URL = 'http://127.0.0.1:3000'
  process.env.TESSERA_OIDC_ISSUER = `http://127.0.0.1:${port}`
  process.env.TESSERA_OIDC_CLIENT_ID = 'tessera-console'
  process.env.TESSERA_OIDC_CLIENT_SECRET = 'tessera-test-client-secret-0123456789'
  process.env.TESSERA_OIDC_NAME = 'Acme ID'
  return port
})
const provider = await startOidcProvider({
  port: providerPort,
  redirectUris: [`${own}/api/sign-in/oidc/callback`],
})
expect([OIDC_CLIENT_ID, OIDC_CLIENT_SECRET]).toEqual([
  process.env.TESSERA_OIDC_CLIENT_ID,
  process.env.TESSERA_OIDC_CLIENT_SECRET,
])

const cookieNamed = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(';')[0]

/** The whole round trip for `username`: Tessera's redirect, the provider's page, Tessera's callback. */
async function signInAs(username: string) {
  const started = await start.GET(new Request(`${own}/api/sign-in/oidc`))
  expect(started.status).toBe(302)
  const flow = cookieNamed(started, 'tessera_oidc') ?? ''
  const back = await signInAtProvider(started.headers.get('location') ?? '', username)
  const response = await callback.GET(new Request(back, { headers: { cookie: flow } }))
  return { started, flow, back, response, session: cookieNamed(response, SESSION_COOKIE) }
}

async function operatorNamed(db: Database, username: string) {
  const [row] = await db.select().from(operators).where(eq(operators.username, username))
  return row
}

describe('single sign-on with OpenID Connect', () => {
  let db: Database
  beforeEach(async () => {
    await freshProcessDatabase()
    db = await getDb()
    await startedTessera(db)
    provider.accounts.clear()
  })
  afterAll(async () => {
    await provider.stop()
    await closeProcessDatabase()
  })

  it('signs a person in with the role their claim gives, and follows the provider when it changes', async () => {
    provider.accounts.set('ana', {
      preferred_username: 'Ana',
      tessera_role: 'analyst',
      email: 'ana@acme.test',
    })
    const first = await signInAs('ana')
    // The flow's cookie must come back from the provider's site: Lax, short-lived, unreadable by scripts.
    expect(first.started.headers.getSetCookie()[0]).toMatch(/HttpOnly; SameSite=Lax/)
    expect(first.started.headers.getSetCookie()[0]).toMatch(/Max-Age=600/)
    const authorization = new URL(first.started.headers.get('location') ?? '')
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${own}/api/sign-in/oidc/callback`)

    expect(first.response.status).toBe(200)
    expect(await first.response.text()).toContain('url=/')
    // The sign-in's state is spent, the session is the console's own (Strict).
    expect(cookieNamed(first.response, 'tessera_oidc')).toBe('tessera_oidc=')
    expect(first.response.headers.getSetCookie().find((c) => c.startsWith(SESSION_COOKIE))).toMatch(
      /SameSite=Strict/,
    )
    const token = first.session?.split('=')[1]
    expect(await readSession({ db, token })).toMatchObject({ username: 'ana', role: 'analyst' })
    const ana = await operatorNamed(db, 'ana')
    expect(ana).toMatchObject({ role: 'analyst', passwordHash: null, oidcIssuer: provider.issuer })

    // The provider makes Ana an admin: her next sign-in says so, on the same operator, audited as its change.
    provider.accounts.set('ana', { preferred_username: 'Ana', tessera_role: ['analyst', 'admin'] })
    const second = await signInAs('ana')
    expect(second.response.status).toBe(200)
    expect(await readSession({ db, token: second.session?.split('=')[1] })).toMatchObject({
      username: 'ana',
      role: 'admin',
    })
    expect(await db.$count(operators, eq(operators.username, 'ana'))).toBe(1)
    const audits = await db.select().from(settingsAudit).where(eq(settingsAudit.key, 'team'))
    expect(audits.map((entry) => [entry.operator, entry.after])).toEqual([
      ['Acme ID (single sign-on)', { operator: 'ana', role: 'analyst', joined: 'single sign-on' }],
      ['Acme ID (single sign-on)', { operator: 'ana', role: 'admin' }],
    ])

    // Her role is the provider's to give: the team panel shows it and an owner cannot change it here.
    const owner = await operatorNamed(db, 'admin')
    const by = { id: owner?.id ?? '', username: 'admin', role: 'owner' as const }
    const team = await readTeam({ db, you: by })
    expect(team.operators.find((member) => member.username === 'ana')?.singleSignOn).toBe(true)
    expect(team.operators.find((member) => member.username === 'admin')?.singleSignOn).toBe(false)
    const refused = await httpFailure(changeRole({ db, operatorId: ana?.id ?? '', role: 'owner', by }))
    expect(refused.status).toBe(409)
    // She has no password here to sign in with or to change.
    const noPassword = await httpFailure(
      changePassword({
        db,
        operatorId: ana?.id ?? '',
        currentPassword: 'anything at all',
        newPassword: 'violet harbour lantern 42',
        ip: '10.0.0.9',
      }),
    )
    expect(noPassword.status).toBe(409)
  })

  it('ends the sessions of someone the provider no longer gives a role', async () => {
    provider.accounts.set('ana', { tessera_role: 'analyst' })
    const first = await signInAs('ana')
    const token = first.session?.split('=')[1]
    expect(await readSession({ db, token })).toMatchObject({ username: 'ana' })
    provider.accounts.set('ana', {})
    const refused = await signInAs('ana')
    expect(refused.response.headers.get('location')).toBe('/#sso-error=no-role')
    expect(await readSession({ db, token })).toBeUndefined()
  })

  it('keeps an owner: the provider cannot demote the last one, and a demoted owner’s invitations go', async () => {
    provider.accounts.set('olga', { tessera_role: 'owner' })
    expect((await signInAs('olga')).response.status).toBe(200)
    const olga = await operatorNamed(db, 'olga')
    const admin = await operatorNamed(db, 'admin')
    const asOlga = { id: olga?.id ?? '', username: 'olga', role: 'owner' as const }
    // Olga, now the only owner, makes an invitation; then the provider makes her an admin.
    await changeRole({ db, operatorId: admin?.id ?? '', role: 'admin', by: asOlga })
    await inviteOperator({ db, role: 'analyst', by: asOlga })
    provider.accounts.set('olga', { tessera_role: 'admin' })
    const refused = await signInAs('olga')
    expect(refused.response.headers.get('location')).toBe('/#sso-error=last-owner')
    expect((await operatorNamed(db, 'olga'))?.role).toBe('owner')
    // With another owner, the demotion goes through, and her open invitation with it.
    await changeRole({ db, operatorId: admin?.id ?? '', role: 'owner', by: asOlga })
    expect((await signInAs('olga')).response.status).toBe(200)
    expect((await operatorNamed(db, 'olga'))?.role).toBe('admin')
    expect(await db.$count(operatorInvitations)).toBe(0)
  })

  it('says the provider is unavailable when it cannot be reached', async () => {
    const settings = oidcSettings()
    if (!settings) throw new Error('single sign-on should be configured in this file')
    const gone = { ...settings, issuer: new URL('http://127.0.0.1:9/') }
    const failure = await beginOidcSignIn(new Request(`${own}/api/sign-in/oidc`), gone).catch(
      (error) => error,
    )
    expect(failure).toBeInstanceOf(OidcSignInError)
    expect(failure.why).toBe('unavailable')
  })

  it('refuses a person whose claims give no role, and makes no operator for them', async () => {
    provider.accounts.set('mallory', { preferred_username: 'mallory', tessera_role: 'superuser' })
    const { response, session } = await signInAs('mallory')
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/#sso-error=no-role')
    expect(session).toBeUndefined()
    expect(await operatorNamed(db, 'mallory')).toBeUndefined()
  })

  it('refuses a callback without its flow, with another flow’s state, or with a code used once already', async () => {
    provider.accounts.set('ana', { tessera_role: 'analyst' })
    const done = await signInAs('ana')
    expect(done.response.status).toBe(200)
    // The same code again (a copied callback URL): refused by the provider, no second session.
    const replayed = await callback.GET(new Request(done.back, { headers: { cookie: done.flow } }))
    expect(replayed.headers.get('location')).toBe('/#sso-error=refused')
    expect(cookieNamed(replayed, SESSION_COOKIE)).toBeUndefined()
    // A callback in a browser that started no sign-in (a link someone was sent).
    const other = await signInAs('ana')
    const stranger = await callback.GET(new Request(other.back))
    expect(stranger.headers.get('location')).toBe('/#sso-error=expired')
    // A code and state from one sign-in, delivered to a browser in the middle of another.
    const victim = await start.GET(new Request(`${own}/api/sign-in/oidc`))
    const attacker = await signInAs('ana')
    const crossed = await callback.GET(
      new Request(attacker.back, { headers: { cookie: cookieNamed(victim, 'tessera_oidc') ?? '' } }),
    )
    expect(crossed.headers.get('location')).toBe('/#sso-error=refused')
    expect(cookieNamed(crossed, SESSION_COOKIE)).toBeUndefined()
    // The provider's own refusal comes back as one too.
    const denied = await signInAs('nobody-here')
    expect(denied.back.searchParams.get('error')).toBe('access_denied')
    expect(denied.response.headers.get('location')).toBe('/#sso-error=refused')
  })

  it('never takes over an operator’s name: a provider’s "admin" is another person', async () => {
    provider.accounts.set('admin', { preferred_username: 'admin', tessera_role: 'owner' })
    const { response } = await signInAs('admin')
    expect(response.status).toBe(200)
    const people = await db
      .select({ username: operators.username, hash: operators.passwordHash })
      .from(operators)
    expect(people).toHaveLength(2)
    const newcomer = people.find((person) => person.username !== 'admin')
    expect(newcomer?.username).toMatch(/^admin~[0-9a-f]{6}$/)
    expect(newcomer?.hash).toBeNull()
    // A look-alike name (a Cyrillic "а") is made plain ASCII: it cannot pass for "admin".
    provider.accounts.set('lookalike', { preferred_username: '\u0430dmin', tessera_role: 'analyst' })
    expect((await signInAs('lookalike')).response.status).toBe(200)
    expect(await operatorNamed(db, '-dmin')).toMatchObject({ role: 'analyst' })
    // The password operator still signs in; the newcomer's name has no password at all.
    await expect(
      signIn({ db, username: 'admin', password: OPERATOR_PASSWORD, ip: '10.0.0.3' }),
    ).resolves.toBeTruthy()
    const without = await httpFailure(
      signIn({ db, username: newcomer?.username ?? '', password: OPERATOR_PASSWORD, ip: '10.0.0.3' }),
    )
    expect(without.status).toBe(401)
  })
})

describe('the role a claim gives', () => {
  const settings = (map = '') => {
    const env = parseEnv({
      TESSERA_OIDC_ISSUER: 'https://id.example',
      TESSERA_OIDC_CLIENT_ID: 'tessera',
      TESSERA_OIDC_ROLE_CLAIM: 'groups',
      TESSERA_OIDC_ROLE_MAP: map,
    })
    return {
      issuer: new URL('https://id.example'),
      clientId: 'tessera',
      name: 'id.example',
      roleClaim: env.TESSERA_OIDC_ROLE_CLAIM,
      roleMap: env.TESSERA_OIDC_ROLE_MAP,
    }
  }

  it('reads role names, or values through the map, and gives the highest', () => {
    expect(roleFromClaims({ groups: 'admin' }, settings())).toBe('admin')
    expect(roleFromClaims({ groups: ['analyst', 'owner', 'x'] }, settings())).toBe('owner')
    expect(roleFromClaims({ groups: ['Owner', 3, null] }, settings())).toBeUndefined()
    expect(roleFromClaims({}, settings())).toBeUndefined()
    const mapped = settings('fraud-team=analyst, platform=admin')
    expect(roleFromClaims({ groups: ['fraud-team'] }, mapped)).toBe('analyst')
    expect(roleFromClaims({ groups: ['fraud-team', 'platform'] }, mapped)).toBe('admin')
    // With a map, a bare role name is just another value.
    expect(roleFromClaims({ groups: ['owner'] }, mapped)).toBeUndefined()
  })

  it('refuses a configuration that cannot work, naming the variable', () => {
    expect(() => parseEnv({ TESSERA_OIDC_ISSUER: 'https://id.example' })).toThrow(/TESSERA_OIDC_CLIENT_ID/)
    expect(() => parseEnv({ TESSERA_OIDC_ISSUER: 'http://id.example', TESSERA_OIDC_CLIENT_ID: 'x' })).toThrow(
      /must be https/,
    )
    expect(() => parseEnv({ TESSERA_OIDC_ROLE_MAP: 'staff=root' })).toThrow(/"staff=root"/)
    expect(() => parseEnv({ TESSERA_OIDC_ISSUER: 'not a url', TESSERA_OIDC_CLIENT_ID: 'x' })).toThrow(
      /TESSERA_OIDC_ISSUER must be a URL/,
    )
    expect(() =>
      parseEnv({ TESSERA_OIDC_ISSUER: 'https://id.example/?tenant=1', TESSERA_OIDC_CLIENT_ID: 'x' }),
    ).toThrow(/no query nor fragment/)
    expect(() => parseEnv({ TESSERA_OIDC_CLIENT_ID: 'x' })).toThrow(/TESSERA_OIDC_ISSUER/)
    // Lines left empty, as in .env.example, mean unset.
    const blank = parseEnv({
      TESSERA_OIDC_ISSUER: '',
      TESSERA_OIDC_CLIENT_ID: ' ',
      TESSERA_OIDC_CLIENT_SECRET: '',
    })
    expect(oidcSettings(blank)).toBeUndefined()
    const publicClient = parseEnv({
      TESSERA_OIDC_ISSUER: 'https://id.example',
      TESSERA_OIDC_CLIENT_ID: 'x',
      TESSERA_OIDC_CLIENT_SECRET: '',
    })
    expect(oidcSettings(publicClient)?.clientSecret).toBeUndefined()
    expect(
      parseEnv({ TESSERA_OIDC_ISSUER: 'http://127.0.0.1:9000', TESSERA_OIDC_CLIENT_ID: 'x' })
        .TESSERA_OIDC_ISSUER,
    ).toBe('http://127.0.0.1:9000')
  })
})
