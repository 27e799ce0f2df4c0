import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { defaultSignupPolicy } from '@/contracts/signup-policy'
import { OPERATOR_PASSWORD, startedTessera } from '../../../../tests/support/console-factories'
import { closeProcessDatabase, freshProcessDatabase } from '../../../../tests/support/process-database'
import * as invitationById from './invitations/[invitationId]/route'
import * as acceptance from './invitations/acceptance/route'
import * as invitations from './invitations/route'
import * as reviews from './reviews/route'
import * as rules from './rules/route'
import * as session from './session/route'
import * as sites from './sites/route'
import * as teamMember from './team/[operatorId]/route'
import * as team from './team/route'
import * as visitorLabel from './visitors/[visitorId]/label/route'

const own = 'http://127.0.0.1:3000'
const NEW_PASSWORD = 'violet harbour lantern 42'

function request(
  path: string,
  { method = 'GET', body, cookie }: { method?: string; body?: unknown; cookie?: string } = {},
) {
  const headers: Record<string, string> = {
    host: '127.0.0.1:3000',
    'x-forwarded-for': '10.0.0.7',
    origin: own,
  }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (cookie) headers.cookie = cookie
  return new Request(`${own}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}
const params = <T>(value: T) => ({ params: Promise.resolve(value) })
const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''

async function ownerCookie() {
  const response = await session.POST(
    request('/api/console/session', { method: 'POST', body: { password: OPERATOR_PASSWORD } }),
  )
  expect(response.status).toBe(200)
  return cookieOf(response)
}

/** An operator of `role` made through an owner's invitation, signed in by accepting it. */
async function member(owner: string, role: 'analyst' | 'admin' | 'owner', username: string) {
  const invited = await invitations.POST(
    request('/api/console/invitations', { method: 'POST', body: { role }, cookie: owner }),
  )
  expect(invited.status).toBe(201)
  const { token } = await invited.json()
  const joined = await acceptance.POST(
    request('/api/console/invitations/acceptance', {
      method: 'POST',
      body: { token, username, password: NEW_PASSWORD },
    }),
  )
  expect(joined.status).toBe(201)
  return { cookie: cookieOf(joined), token }
}

beforeEach(async () => {
  await startedTessera(await freshProcessDatabase())
})
afterAll(closeProcessDatabase)

describe('roles, enforced by the server', () => {
  it('lets an analyst read, label and review, and refuses it rules, sites and the team with 403', async () => {
    const owner = await ownerCookie()
    const { cookie: analyst } = await member(owner, 'analyst', 'ana')
    expect(await (await session.GET(request('/api/console/session', { cookie: analyst }))).json()).toEqual({
      username: 'ana',
      role: 'analyst',
    })
    expect((await rules.GET(request('/api/console/rules', { cookie: analyst }))).status).toBe(200)
    expect((await reviews.GET(request('/api/console/reviews', { cookie: analyst }))).status).toBe(200)
    // Labelling is an analyst's work: the route is reached (an unknown visitor is a 404, not a 403).
    const label = await visitorLabel.PUT(
      request('/api/console/visitors/nobody/label', {
        method: 'PUT',
        body: { label: 'fraud' },
        cookie: analyst,
      }),
      params({ visitorId: 'nobody' }),
    )
    expect(label.status).toBe(404)

    const refusedRules = await rules.PUT(
      request('/api/console/rules', {
        method: 'PUT',
        body: { ...defaultSignupPolicy, botRule: 'off' },
        cookie: analyst,
      }),
    )
    expect(refusedRules.status).toBe(403)
    expect((await refusedRules.json()).error.message).toBe('This needs the admin role; you are an analyst.')
    expect(
      (await (await rules.GET(request('/api/console/rules', { cookie: owner }))).json()).policy.botRule,
    ).toBe('deny')
    const refusedSite = await sites.POST(
      request('/api/console/sites', {
        method: 'POST',
        body: { name: 'Sneaky', allowedOrigins: [] },
        cookie: analyst,
      }),
    )
    expect(refusedSite.status).toBe(403)
    expect((await team.GET(request('/api/console/team', { cookie: analyst }))).status).toBe(403)
  })

  it('lets an admin change the rules but not the team; the owner runs the team', async () => {
    const owner = await ownerCookie()
    const { cookie: admin } = await member(owner, 'admin', 'ada')
    const saved = await rules.PUT(
      request('/api/console/rules', {
        method: 'PUT',
        body: { ...defaultSignupPolicy, botRule: 'challenge' },
        cookie: admin,
      }),
    )
    expect(saved.status).toBe(200)
    expect(
      (
        await invitations.POST(
          request('/api/console/invitations', { method: 'POST', body: { role: 'owner' }, cookie: admin }),
        )
      ).status,
    ).toBe(403)

    const listed = await (await team.GET(request('/api/console/team', { cookie: owner }))).json()
    expect(
      listed.operators.map((entry: { username: string; role: string; you: boolean }) => [
        entry.username,
        entry.role,
        entry.you,
      ]),
    ).toEqual([
      ['admin', 'owner', true],
      ['ada', 'admin', false],
    ])
    const ada = listed.operators[1].id
    expect(
      (
        await teamMember.PATCH(
          request(`/api/console/team/${ada}`, { method: 'PATCH', body: { role: 'analyst' }, cookie: owner }),
          params({ operatorId: ada }),
        )
      ).status,
    ).toBe(204)
    // The change holds at once: the admin is now an analyst.
    expect(
      (
        await rules.PUT(
          request('/api/console/rules', { method: 'PUT', body: defaultSignupPolicy, cookie: admin }),
        )
      ).status,
    ).toBe(403)
    // Removed, the operator's session ends with them.
    expect(
      (
        await teamMember.DELETE(
          request(`/api/console/team/${ada}`, { method: 'DELETE', cookie: owner }),
          params({ operatorId: ada }),
        )
      ).status,
    ).toBe(204)
    expect((await session.GET(request('/api/console/session', { cookie: admin }))).status).toBe(401)
  })

  it('keeps a chosen name as sign-in finds it: in lower case, and in plain letters only', async () => {
    const owner = await ownerCookie()
    await member(owner, 'analyst', 'Bob.Smith')
    const signedIn = await session.POST(
      request('/api/console/session', {
        method: 'POST',
        body: { username: 'BOB.smith', password: NEW_PASSWORD },
      }),
    )
    expect(signedIn.status).toBe(200)
    const { operators } = await (await team.GET(request('/api/console/team', { cookie: owner }))).json()
    expect(operators.map((entry: { username: string }) => entry.username)).toContain('bob.smith')

    // "аdmin" with a Cyrillic а would pass for the owner in the team list and the audit trail.
    const invited = await (
      await invitations.POST(
        request('/api/console/invitations', { method: 'POST', body: { role: 'admin' }, cookie: owner }),
      )
    ).json()
    const lookAlike = await acceptance.POST(
      request('/api/console/invitations/acceptance', {
        method: 'POST',
        body: { token: invited.token, username: '\u0430dmin', password: NEW_PASSWORD },
      }),
    )
    expect(lookAlike.status).toBe(400)
    expect(JSON.stringify(await lookAlike.json())).toMatch(/letters a–z/)
    // Refused for its name, the invitation still works.
    const joined = await acceptance.POST(
      request('/api/console/invitations/acceptance', {
        method: 'POST',
        body: { token: invited.token, username: 'admin2', password: NEW_PASSWORD },
      }),
    )
    expect(joined.status).toBe(201)
  })

  it('makes an invitation work once, refuses a taken name, and keeps an owner on the team', async () => {
    const owner = await ownerCookie()
    const { token } = await member(owner, 'analyst', 'bo')
    const again = await acceptance.POST(
      request('/api/console/invitations/acceptance', {
        method: 'POST',
        body: { token, username: 'bo2', password: NEW_PASSWORD },
      }),
    )
    expect(again.status).toBe(404)

    const invited = await (
      await invitations.POST(
        request('/api/console/invitations', { method: 'POST', body: { role: 'admin' }, cookie: owner }),
      )
    ).json()
    const taken = await acceptance.POST(
      request('/api/console/invitations/acceptance', {
        method: 'POST',
        body: { token: invited.token, username: 'bo', password: NEW_PASSWORD },
      }),
    )
    expect(taken.status).toBe(409)
    expect((await taken.json()).error.details).toEqual({
      fields: { username: 'This name is taken: choose another.' },
    })
    // Refused for its name, the invitation still works.
    const weak = await acceptance.POST(
      request('/api/console/invitations/acceptance', {
        method: 'POST',
        body: { token: invited.token, username: 'cy', password: 'password' },
      }),
    )
    expect(weak.status).toBe(400)
    expect(
      (
        await invitationById.DELETE(
          request(`/api/console/invitations/${invited.id}`, { method: 'DELETE', cookie: owner }),
          params({ invitationId: invited.id }),
        )
      ).status,
    ).toBe(204)
    const revoked = await acceptance.POST(
      request('/api/console/invitations/acceptance', {
        method: 'POST',
        body: { token: invited.token, username: 'cy', password: NEW_PASSWORD },
      }),
    )
    expect(revoked.status).toBe(404)

    const { operators } = await (await team.GET(request('/api/console/team', { cookie: owner }))).json()
    const me = operators.find((entry: { you: boolean }) => entry.you).id
    const demoted = await teamMember.PATCH(
      request(`/api/console/team/${me}`, { method: 'PATCH', body: { role: 'admin' }, cookie: owner }),
      params({ operatorId: me }),
    )
    expect(demoted.status).toBe(409)
    const removed = await teamMember.DELETE(
      request(`/api/console/team/${me}`, { method: 'DELETE', cookie: owner }),
      params({ operatorId: me }),
    )
    expect(removed.status).toBe(409)
  })

  it('refuses an invitation accepted from another site (403), creating nothing', async () => {
    const owner = await ownerCookie()
    const { token } = await (
      await invitations.POST(
        request('/api/console/invitations', { method: 'POST', body: { role: 'owner' }, cookie: owner }),
      )
    ).json()
    const forged = new Request(`${own}/api/console/invitations/acceptance`, {
      method: 'POST',
      headers: {
        host: '127.0.0.1:3000',
        origin: 'http://127.0.0.1:3999',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ token, username: 'mallory', password: NEW_PASSWORD }),
    })
    expect((await acceptance.POST(forged)).status).toBe(403)
    const { operators } = await (await team.GET(request('/api/console/team', { cookie: owner }))).json()
    expect(operators).toHaveLength(1)
  })
})
