import 'server-only'
import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm'
import type { PolicyPreview } from '@/contracts/console'
import type { SignupPolicy } from '@/contracts/signup-policy'
import { decisionMoment, decisionsBefore } from '../../console/list-signup-decisions'
import type { Database } from '../../db/client'
import { signupDecisions } from '../../db/schema'
import { evaluatePolicy } from './evaluate-policy'
import { POLICY_SETTING, readSignupPolicy } from './read-policy'

const PAGE = 2000
const severity = { allow: 0, challenge: 1, deny: 2 } as const
const EXAMPLES = 5

/**
 * What a rule change would have done to the sign-ups of the last `days` days: each decision's
 * stored facts go through the rules in force and through the candidate, and every decision whose
 * outcome differs is counted by its change (allow → challenge…), with a few examples. Read a page at
 * a time; decisions stored before facts were kept are counted apart.
 */
export async function previewPolicy({
  db,
  candidate,
  site,
  days = 7,
  now = new Date(),
}: {
  db: Database
  candidate: SignupPolicy
  /** A site's public key: its own rules, tried on its sign-ups alone. */
  site?: string
  days?: number
  now?: Date
}): Promise<PolicyPreview> {
  const current = await readSignupPolicy(db, site)
  // The default rules are tried on the sign-ups they decide: not those of sites with rules of their own.
  const ofSite = site
    ? eq(signupDecisions.siteKey, site)
    : sql`(${signupDecisions.siteKey} is null or not exists (select 1 from settings s
        where s.key = ${`${POLICY_SETTING}:`} || ${signupDecisions.siteKey}))`
  const since = new Date(now.getTime() - days * 86_400_000).toISOString()
  const changes = new Map<string, PolicyPreview['changes'][number]>()
  let decisions = 0
  let cursor: { createdAt: string; requestId: string } | undefined
  for (;;) {
    const rows = await db
      .select({
        requestId: signupDecisions.requestId,
        email: signupDecisions.email,
        createdAt: signupDecisions.createdAt,
        facts: signupDecisions.facts,
      })
      .from(signupDecisions)
      .where(
        and(
          gt(signupDecisions.createdAt, since),
          isNotNull(signupDecisions.facts),
          // A challenge a later attempt answered is that attempt's sign-up (record-signup.ts).
          isNull(signupDecisions.supersededBy),
          ofSite,
          cursor ? decisionsBefore(cursor) : undefined,
        ),
      )
      .orderBy(desc(decisionMoment), desc(signupDecisions.requestId))
      .limit(PAGE)
    for (const row of rows) {
      if (!row.facts) continue
      decisions++
      const was = evaluatePolicy(row.facts, current)
      const before = was.outcome
      const after = evaluatePolicy(row.facts, candidate)
      if (after.outcome === before) continue
      // Why it would now be stricter, or why it was stricter before.
      const why = severity[after.outcome] > severity[before] ? after.reasons : was.reasons
      const key = `${before}→${after.outcome}`
      const change = changes.get(key) ?? { from: before, to: after.outcome, count: 0, examples: [] }
      change.count++
      if (change.examples.length < EXAMPLES)
        change.examples.push({
          requestId: row.requestId,
          email: row.email,
          createdAt: row.createdAt,
          reasons: why.map((reason) => reason.message),
        })
      changes.set(key, change)
    }
    const last = rows[rows.length - 1]
    if (rows.length < PAGE || !last) break
    cursor = { createdAt: last.createdAt, requestId: last.requestId }
  }
  const [withoutFacts] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(signupDecisions)
    .where(and(gt(signupDecisions.createdAt, since), isNull(signupDecisions.facts), ofSite))
  return {
    days,
    decisions,
    withoutFacts: withoutFacts?.count ?? 0,
    changes: [...changes.values()].sort((a, b) => b.count - a.count),
  }
}
