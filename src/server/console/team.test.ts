import { expect, it } from 'vitest'
import { allows } from '@/contracts/roles'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { operators } from '../db/schema'
import { httpFailure } from '../signup/test-signup'
import { roleNeededFor } from './endpoint-roles'
import { ensureFirstOperator } from './ensure-first-operator'
import { createSession, readSession } from './sessions'
import { acceptInvitation, changeRole, inviteOperator, readTeam } from './team'

describeOnEachEngine('the team and its roles', (database) => {
  it('makes the first operator the owner, and an invited analyst one whose session may read but not change the rules', async () => {
    const { db } = database
    await ensureFirstOperator({ db, configuredPassword: 'correct horse battery staple' })
    const [first] = await db
      .select({ id: operators.id, username: operators.username, role: operators.role })
      .from(operators)
    expect(first?.role).toBe('owner')
    const owner = { id: first?.id ?? '', username: 'admin', role: 'owner' as const }

    const { token } = await inviteOperator({ db, role: 'analyst', by: owner })
    const { operatorId } = await acceptInvitation({
      db,
      token,
      username: 'ana',
      password: 'violet harbour lantern 42',
    })
    const session = await createSession({ db, operatorId })
    const analyst = await readSession({ db, token: session.token })
    expect(analyst).toMatchObject({ username: 'ana', role: 'analyst' })
    const role = analyst?.role ?? 'owner'
    expect(allows(role, roleNeededFor('GET', '/api/console/rules') ?? 'owner')).toBe(true)
    expect(allows(role, roleNeededFor('PUT', '/api/console/rules') ?? 'analyst')).toBe(false)
    expect(allows(role, roleNeededFor('POST', '/api/console/reviews') ?? 'owner')).toBe(true)
    expect(allows(role, roleNeededFor('DELETE', '/api/console/visitors/abc') ?? 'analyst')).toBe(false)
    // The invitation worked once.
    expect(
      (
        await httpFailure(
          acceptInvitation({ db, token, username: 'ana2', password: 'violet harbour lantern 42' }),
        )
      ).status,
    ).toBe(404)

    // Two owners demoting each other at once leave one owner.
    const { token: second } = await inviteOperator({ db, role: 'owner', by: owner })
    const { operatorId: bo } = await acceptInvitation({
      db,
      token: second,
      username: 'bo',
      password: 'violet harbour lantern 42',
    })
    const results = await Promise.allSettled([
      changeRole({ db, operatorId: owner.id, role: 'admin', by: { id: bo, username: 'bo', role: 'owner' } }),
      changeRole({ db, operatorId: bo, role: 'admin', by: owner }),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    const team = await readTeam({ db, you: owner })
    expect(team.operators.filter((entry) => entry.role === 'owner')).toHaveLength(1)
  })

  it('names a role for every console endpoint but those used signed out (sign-in, its puzzle, joining) and sign-out', async () => {
    const { consoleEndpoints } = await import('@/contracts/console-endpoints')
    const without = Object.entries(consoleEndpoints)
      .filter(([, contract]) => !('role' in contract))
      .map(([key]) => key)
    expect(without.sort()).toEqual([
      'DELETE /api/console/session',
      'GET /api/console/session/challenge',
      'POST /api/console/invitations/acceptance',
      'POST /api/console/session',
    ])
  })
})
