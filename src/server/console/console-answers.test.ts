import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import type { z } from 'zod'
import {
  CreatedApiKey,
  CreatedSealingKey,
  CreatedSite,
  CreatedWebhook,
  Overview,
  PolicyWithAudit,
  RECENT_EVENTS_READ,
  SignupDecisionList,
  SiteList,
  VisitorPanel,
  WebhookDeliveryList,
} from '@/contracts/console'
import { DeviceReport } from '@/contracts/device'
import { EventPage } from '@/contracts/server-api'
import { defaultSignupPolicy } from '@/contracts/signup-policy'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { createApiKey } from '../api/create-api-key'
import type { Database } from '../db/client'
import { accounts, events, signupDecisions, webhookDeliveries } from '../db/schema'
import { identifyVisitor } from '../identification/identify-visitor'
import { readDeviceReport } from '../identification/read-device-report'
import { createSealingKey } from '../sealing/create-sealing-key'
import { updateSignupPolicy } from '../signup/policy/update-policy'
import { createSite } from '../sites/create-site'
import { listSites } from '../sites/list-sites'
import { createWebhook } from '../webhooks/create-webhook'
import { listRecentEvents } from './list-recent-events'
import { listSignupDecisions } from './list-signup-decisions'
import { listWebhookDeliveries } from './list-webhook-deliveries'
import { findVisitorId, readVisitorPanel } from './look-up-visitor'
import { readOverview } from './read-overview'
import { readPolicyWithAudit } from './read-policy-with-audit'

const IP = '198.51.100.7'
const ISO_MOMENT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/**
 * The answer is exactly what its contract describes: parsing drops no extra field and fills no
 * missing one (zod strips unknown keys, so an extra field makes the two differ).
 */
function expectDescribed<Schema extends z.ZodType>(schema: Schema, answer: unknown) {
  expect(schema.parse(answer)).toEqual(answer)
}

/** Every field named like a moment (`…At`, `bucket`) holds one form: ISO 8601 in UTC. */
function momentsOf(value: unknown, key = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => momentsOf(item))
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([name, item]) => momentsOf(item, name))
  return /At$|^bucket$/.test(key) && typeof value === 'string' ? [value] : []
}

function expectIsoMoments(answer: unknown) {
  const moments = momentsOf(answer)
  expect(moments.length).toBeGreaterThan(0)
  for (const moment of moments) expect(moment).toMatch(ISO_MOMENT)
}

// Small factories: each builds the rows one answer needs, directly where that is simplest.

async function identify(db: Database, seed: number, extra: { siteKey?: string; linkedId?: string } = {}) {
  return identifyVisitor({
    db,
    input: { components: syntheticDevice(seed), url: 'https://shop.example/', ...extra },
    context: { ip: IP, userAgent: 'test' },
  })
}

async function addDecision(db: Database, outcome: 'allow' | 'challenge' | 'deny', visitorId: string | null) {
  const requestId = `req_${randomBytes(6).toString('hex')}`
  await db.insert(signupDecisions).values({
    requestId,
    visitorId,
    ip: IP,
    email: `${outcome}@example.com`,
    outcome,
    reasons: outcome === 'allow' ? [] : [{ rule: 'botRule', outcome, message: 'A bot.' }],
  })
  return requestId
}

async function addDelivery(db: Database, webhookId: string, delivered: boolean) {
  await db.insert(webhookDeliveries).values({
    id: `del_${randomBytes(6).toString('hex')}`,
    webhookId,
    eventType: 'identification',
    payload: { type: 'identification', event: { requestId: 'req_x' } },
    attempts: delivered ? 1 : 3,
    deliveredAt: delivered ? new Date().toISOString() : null,
    lastStatus: delivered ? 204 : 500,
    lastError: delivered ? null : 'The receiver answered HTTP 500.',
  })
}

describeOnEachEngine('console answers', (handle) => {
  it('are exactly their contracts when a thing is created', async () => {
    const { db } = handle
    const site = await createSite({ db, name: 'Shop', allowedOrigins: ['https://shop.example'] })
    expectDescribed(CreatedSite, site)
    expectDescribed(CreatedApiKey, await createApiKey({ db, siteId: site.id, name: 'Back end' }))
    expectDescribed(
      CreatedWebhook,
      await createWebhook({
        db,
        siteId: site.id,
        url: 'https://hooks.example/tessera',
        format: 'fingerprint-v4',
      }),
    )
    const sealingKey = await createSealingKey({ db, siteId: site.id, operator: 'admin' })
    expectDescribed(CreatedSealingKey, sealingKey)
    expect(sealingKey.createdAt).toMatch(ISO_MOMENT)
  })

  it('list sites with their keys, webhooks, sealing keys and changes', async () => {
    const { db } = handle
    const site = await createSite({ db, name: 'Listed', allowedOrigins: [] })
    const key = await createApiKey({ db, siteId: site.id, name: 'Reader' })
    await createWebhook({ db, siteId: site.id, url: 'https://hooks.example/listed' })
    await createSealingKey({ db, siteId: site.id, operator: 'admin', encryptionKey: randomBytes(32) })
    await createSealingKey({ db, siteId: site.id, operator: 'admin' })
    const answer = await listSites({ db, encryptionKey: undefined })
    expectDescribed(SiteList, answer)
    expectIsoMoments(answer)
    const listed = answer.sites.find((entry) => entry.id === site.id)
    expect(listed?.apiKeys.map((entry) => entry.id)).toEqual([key.id])
    expect(listed?.sealingKeys.map((entry) => entry.encrypted)).toEqual([true, false])
    expect(listed?.sealingKeyChanges.map((change) => change.after.keys.length)).toEqual([2, 1])
    expect(answer.sealingKeysEncrypted).toBe(false)
  })

  it('list sign-up decisions, newest first', async () => {
    const { db } = handle
    await addDecision(db, 'deny', null)
    const latest = await addDecision(db, 'allow', 'visitor_x')
    const answer = await listSignupDecisions({ db })
    expectDescribed(SignupDecisionList, answer)
    expectIsoMoments(answer)
    expect(answer.decisions[0]?.requestId).toBe(latest)
  })

  it('list an answered challenge with the attempt that answered it, and its outcome', async () => {
    const { db } = handle
    const pending = await addDecision(db, 'challenge', 'visitor_pending')
    const answered = await addDecision(db, 'challenge', 'visitor_answered')
    const answering = await addDecision(db, 'allow', 'visitor_answered')
    // An answer whose own decision is gone since (a decision deleted by hand, a partial restore).
    const orphaned = await addDecision(db, 'challenge', 'visitor_orphaned')
    await db
      .update(signupDecisions)
      .set({ supersededBy: answering })
      .where(eq(signupDecisions.requestId, answered))
    await db
      .update(signupDecisions)
      .set({ supersededBy: 'req_gone' })
      .where(eq(signupDecisions.requestId, orphaned))
    const answer = await listSignupDecisions({ db, limit: 100 })
    expectDescribed(SignupDecisionList, answer)
    const answerOf = (requestId: string) =>
      answer.decisions.find((decision) => decision.requestId === requestId)?.answer
    expect(answerOf(answered)).toEqual({ requestId: answering, outcome: 'allow' })
    expect(answerOf(orphaned)).toEqual({ requestId: 'req_gone', outcome: null })
    expect(answerOf(pending)).toBeNull()
    expect(answerOf(answering)).toBeNull()
  })

  it('list a webhook’s deliveries', async () => {
    const { db } = handle
    const site = await createSite({ db, name: 'Hooked', allowedOrigins: [] })
    const webhook = await createWebhook({ db, siteId: site.id, url: 'https://hooks.example/log' })
    await addDelivery(db, webhook.id, true)
    await addDelivery(db, webhook.id, false)
    const answer = await listWebhookDeliveries({ db, webhookId: webhook.id })
    expectDescribed(WebhookDeliveryList, answer)
    expectIsoMoments(answer)
    expect(answer.deliveries).toHaveLength(2)
    await expect(listWebhookDeliveries({ db, webhookId: 'wh_unknown' })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    })
  })

  it('read the sign-up policy with its audit trail', async () => {
    const { db } = handle
    await updateSignupPolicy({
      db,
      operator: 'admin',
      policy: { ...defaultSignupPolicy, botRule: 'challenge' },
    })
    const answer = await readPolicyWithAudit({ db })
    expectDescribed(PolicyWithAudit, answer)
    expectIsoMoments(answer)
    expect(answer.audit[0]).toMatchObject({ before: { botRule: 'deny' }, after: { botRule: 'challenge' } })
  })

  it('read events, the overview, a visitor and a device report', async () => {
    const { db } = handle
    const first = await identify(db, 41, { linkedId: 'account-41' })
    const again = await identify(db, 41)
    await addDecision(db, 'challenge', first.visitorId)
    await db.insert(accounts).values({
      id: 'acct_41',
      email: 'ada@example.com',
      name: 'Ada',
      passwordHash: 'x',
      visitorId: first.visitorId,
    })

    const page = await listRecentEvents({ db, limit: 1 })
    expectDescribed(EventPage, page)
    expectIsoMoments(page)
    expect(page.nextCursor).not.toBeNull()

    const overview = await readOverview({ db, range: '24h' })
    expectDescribed(Overview, overview)
    expectIsoMoments(overview)

    const visitorId = await findVisitorId({ db, query: 'account-41' })
    expect(visitorId).toBe(first.visitorId)
    const panel = await readVisitorPanel({ db, visitorId: visitorId ?? '' })
    expectDescribed(VisitorPanel, panel)
    expectIsoMoments(panel)
    expect(panel?.accounts.map((account) => account.email)).toEqual(['ada@example.com'])

    const [event] = await db
      .select({ browserId: events.browserId })
      .from(events)
      .where(eq(events.requestId, again.requestId))
    const report = await readDeviceReport({
      db,
      visitorId: again.visitorId,
      browserId: event?.browserId ?? '',
    })
    expectDescribed(DeviceReport, report)
    expectIsoMoments(report)
    expect(report?.uniqueness.length).toBeGreaterThan(0)
  })
  it('list a visitor’s addresses by use and its linked IDs newest first, as one read gives both', async () => {
    const { db } = handle
    const first = await identify(db, 44, { linkedId: 'account-older' })
    // Later visits copied from the first: three from one address, one from another, a newer linked ID.
    const visits = [
      ['203.0.113.1', null, 1],
      ['203.0.113.1', null, 2],
      ['203.0.113.1', 'account-newer', 3],
      ['203.0.113.2', null, 4],
    ] as const
    for (const [ip, linkedId, minutes] of visits)
      await db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method,
          ip, linked_id, site_key, signals, flags, suspect_score, snapshot, durations)
        select ${`order-${minutes}`}, visitor_id, created_at + ${minutes} * interval '1 minute', true, confidence,
          method, ${ip}, ${linkedId}, site_key, signals, flags, suspect_score, snapshot, durations
        from events where request_id = ${first.requestId}`)
    const panel = await readVisitorPanel({ db, visitorId: first.visitorId })
    expect(panel?.ips).toEqual([
      { ip: '203.0.113.1', events: 3 },
      // Ties by address.
      { ip: IP, events: 1 },
      { ip: '203.0.113.2', events: 1 },
    ])
    expect(panel?.linkedIds).toEqual(['account-newer', 'account-older'])
    expect(panel?.events.map((event) => event.requestId).slice(0, 2)).toEqual(['order-4', 'order-3'])
  })
  it('read a busy visitor’s addresses and linked IDs from its latest events alone', async () => {
    const { db } = handle
    const first = await identify(db, 43, { linkedId: 'account-of-old' })
    // A thousand later visits from another address, copied from the first (a scraper's day).
    await db.execute(sql`insert into events (request_id, visitor_id, created_at, visitor_found, confidence, method,
        ip, site_key, signals, flags, suspect_score, snapshot, durations)
      select 'busy-' || n, visitor_id, created_at + n * interval '1 second', true, confidence, method,
        '203.0.113.9', site_key, signals, flags, suspect_score, snapshot, durations
      from events, generate_series(1, ${RECENT_EVENTS_READ}) n where request_id = ${first.requestId}`)
    await db.execute(
      sql`update visitors set visits = visits + ${RECENT_EVENTS_READ} where id = ${first.visitorId}`,
    )
    const panel = await readVisitorPanel({ db, visitorId: first.visitorId })
    expect(panel?.visits).toBeGreaterThan(RECENT_EVENTS_READ)
    expect(panel?.ips).toEqual([{ ip: '203.0.113.9', events: RECENT_EVENTS_READ }])
    expect(panel?.linkedIds).toEqual([])
    expect(panel?.events).toHaveLength(50)
    // The first visit is still found by what only it carried.
    expect(await findVisitorId({ db, query: 'account-of-old' })).toBe(first.visitorId)
  })
})
