import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { defaultSignupPolicy } from '@/contracts/signup-policy'
import { cleanSignupFacts } from '../../../../tests/support/signup-facts'
import { describeOnEachEngine } from '../../../../tests/support/test-database'
import type { SignupFacts } from './evaluate-policy'
import { previewPolicy } from './preview-policy'

const clean = cleanSignupFacts

describeOnEachEngine('previewPolicy', (handle) => {
  it("counts what a change would have turned into what over the period's stored facts, with examples", async () => {
    const now = new Date()
    const decide = async (id: string, facts: SignupFacts | null, daysAgo = 1) =>
      handle.db.execute(sql`insert into signup_decisions (request_id, email, outcome, reasons, facts, created_at)
        values (${id}, ${`${id}@example.com`}, 'allow', '[]'::jsonb,
                ${facts ? JSON.stringify(facts) : null}::jsonb, ${new Date(now.getTime() - daysAgo * 86_400_000).toISOString()})`)
    await decide('vpn-1', { ...clean, network: { ...clean.network, vpn: true } })
    await decide('vpn-2', { ...clean, network: { ...clean.network, vpn: true } }, 3)
    await decide('crowded', { ...clean, visitorsFromAddress1h: 40 })
    await decide('clean', clean)
    await decide('old-vpn', { ...clean, network: { ...clean.network, vpn: true } }, 9)
    await decide('no-facts', null)

    const unchanged = await previewPolicy({ db: handle.db, candidate: defaultSignupPolicy, now })
    expect(unchanged).toEqual({ days: 7, decisions: 4, withoutFacts: 1, changes: [] })

    const stricter = await previewPolicy({
      db: handle.db,
      candidate: { ...defaultSignupPolicy, vpnRule: 'challenge', addressVisitorsRule: 'deny' },
      now,
    })
    expect(stricter.changes).toEqual([
      {
        from: 'allow',
        to: 'challenge',
        count: 2,
        examples: [
          expect.objectContaining({ requestId: 'vpn-1', reasons: [expect.stringMatching(/VPN/)] }),
          expect.objectContaining({ requestId: 'vpn-2' }),
        ],
      },
      {
        from: 'allow',
        to: 'deny',
        count: 1,
        examples: [expect.objectContaining({ requestId: 'crowded', email: 'crowded@example.com' })],
      },
    ])
  })
})
