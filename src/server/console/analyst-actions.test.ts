import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { changeEventSignals } from '../../../tests/support/event-signals'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { readEvent } from '../api/read-event'
import { queryRows } from '../db/client'
import { readFingerprintEvent } from '../fingerprint/read-fingerprint-events'
import { exportVisitorData } from '../identification/export-visitor-data'
import { forgetVisitor } from '../identification/forget-visitor'
import { identifyVisitor } from '../identification/identify-visitor'
import { decide, httpFailure, setPolicy, signupFields, solvedChallenge } from '../signup/test-signup'
import { ensureDefaultSite } from '../sites/ensure-default-site'
import { clearSiteCache, findSite } from '../sites/find-site'
import { setSiteLists } from '../sites/manage-sites'
import { renderDelivery } from '../webhooks/render-delivery'
import { labelAccount, labelVisitor, unlabelVisitor } from './label-subjects'
import { readVisitorPanel } from './look-up-visitor'
import { listReviewQueue, reviewSignup, undoReview } from './review-signups'

let seed = 7300

describeOnEachEngine('lists, labels and the review queue', (database) => {
  async function home() {
    // Both engines run in this process: the site cache must not carry one's site into the other's.
    clearSiteCache()
    await ensureDefaultSite({ db: database.db, origins: [] })
    clearSiteCache()
    const site = await findSite({ db: database.db })
    if (!site) throw new Error('no default site')
    return site
  }

  /** A new device identified on the default site from `ip`. */
  async function visit(ip: string) {
    const site = await home()
    return identifyVisitor({
      db: database.db,
      input: { components: syntheticDevice(++seed), siteKey: site.publicKey },
      context: { ip, userAgent: 'test' },
    })
  }

  /** Marks an identification tampered with, which the default tampering rule challenges. */
  async function tamper(requestId: string) {
    await changeEventSignals(database.db, requestId, (signals) => ({
      ...signals,
      tampering: { result: true, reasons: [] },
    }))
  }

  async function storedDecision(requestId: string) {
    const [row] = await queryRows<{
      outcome: string
      reasons: { rule: string; message: string }[]
      facts: unknown
    }>(database.db, sql`select outcome, reasons, facts from signup_decisions where request_id = ${requestId}`)
    return row
  }

  it('denies by a deny-listed email domain, allows by an allow-listed range, and keeps what matched in the facts', async () => {
    const { db } = database
    // Nothing else may decide here: these identifications carry no agent proof.
    await setPolicy(db, { agentProofRule: 'off', suspectScoreRule: 'off' })
    const site = await home()
    await setSiteLists({ db, siteId: site.id, deny: ['@spam.example'], allow: ['192.0.2.0/24'] })

    const spammer = await visit('198.51.100.60')
    const denied = await decide(
      db,
      { requestId: spammer.requestId, fields: signupFields('ann@eu.spam.example') },
      '198.51.100.60',
    )
    expect(denied.outcome).toBe('deny')
    expect(await storedDecision(spammer.requestId)).toMatchObject({
      outcome: 'deny',
      reasons: [
        { rule: 'ipBlocklist', message: "The email domain @spam.example is on this site's deny list." },
      ],
      facts: { listed: { deny: '@spam.example', allow: null }, label: null },
    })

    // An allow-listed office signs up even at the attempts limit.
    await setPolicy(db, {
      agentProofRule: 'off',
      suspectScoreRule: 'off',
      ipAttemptsRule: 'deny',
      maxAttemptsPerIp: 1,
    })
    for (let attempt = 0; attempt < 3; attempt++) {
      const office = await visit('192.0.2.10')
      expect(
        (await decide(db, { requestId: office.requestId, fields: signupFields() }, '192.0.2.10')).outcome,
      ).toBe('allow')
    }
    await setSiteLists({ db, siteId: site.id, deny: [], allow: [] })
  })

  it('denies a device labelled fraud and lets one labelled good through; a forget deletes the label', async () => {
    const { db } = database
    await setPolicy(db, { agentProofRule: 'off', suspectScoreRule: 'off', botRule: 'deny' })
    const fraud = await visit('198.51.100.61')
    await labelVisitor({ db, visitorId: fraud.visitorId, label: 'fraud', operator: 'ana' })
    expect(
      (await decide(db, { requestId: fraud.requestId, fields: signupFields() }, '198.51.100.61')).outcome,
    ).toBe('deny')
    expect((await storedDecision(fraud.requestId))?.reasons.map((reason) => reason.rule)).toEqual([
      'fraudLabel',
    ])

    // A device the analyst vouched for passes a challenge (tampering), not a denial (a bad bot).
    const vouched = await visit('198.51.100.62')
    await labelVisitor({ db, visitorId: vouched.visitorId, label: 'good', operator: 'ana' })
    await tamper(vouched.requestId)
    expect(
      (await decide(db, { requestId: vouched.requestId, fields: signupFields() }, '198.51.100.62')).outcome,
    ).toBe('allow')
    const automated = await visit('198.51.100.68')
    await labelVisitor({ db, visitorId: automated.visitorId, label: 'good', operator: 'ana' })
    await changeEventSignals(db, automated.requestId, (signals) => ({
      ...signals,
      bot: { result: 'bad', reasons: [] },
    }))
    expect(
      (await decide(db, { requestId: automated.requestId, fields: signupFields() }, '198.51.100.68')).outcome,
    ).toBe('deny')

    // Labels name who set them; an unknown visitor or a missing label is a 404, not a silent success.
    const panel = await readVisitorPanel({ db, visitorId: fraud.visitorId })
    expect(panel?.label).toMatchObject({ label: 'fraud', operator: 'ana' })
    expect(Date.parse(panel?.label?.labelledAt ?? '')).not.toBeNaN()
    expect(
      (await httpFailure(labelVisitor({ db, visitorId: 'nobody-at-all', label: 'good', operator: 'ana' })))
        .status,
    ).toBe(404)
    expect(
      (await httpFailure(labelAccount({ db, accountId: 'acct_nobody', label: 'good', operator: 'ana' })))
        .status,
    ).toBe(404)
    await forgetVisitor({ db, visitorId: fraud.visitorId })
    const left = await queryRows(db, sql`select 1 from visitor_labels where visitor_id = ${fraud.visitorId}`)
    expect(left).toEqual([])
    expect((await httpFailure(unlabelVisitor({ db, visitorId: fraud.visitorId }))).status).toBe(404)
  })

  it('shows the label in the Server API, as /v4 suspect where the integrator set none, and in webhooks', async () => {
    const { db } = database
    const site = await home()
    const event = await visit('198.51.100.63')
    const caller = { sitePublicKey: site.publicKey }
    expect((await readEvent({ db, caller, requestId: event.requestId })).visitorLabel).toBeNull()
    expect(
      (
        await readFingerprintEvent({
          db,
          caller: { ...site, sitePublicKey: site.publicKey },
          eventId: event.requestId,
        })
      ).suspect,
    ).toBeUndefined()

    await labelVisitor({ db, visitorId: event.visitorId, label: 'fraud', operator: 'ana' })
    const stored = await readEvent({ db, caller, requestId: event.requestId })
    expect(stored.visitorLabel).toBe('fraud')
    expect(
      (
        await readFingerprintEvent({
          db,
          caller: { ...site, sitePublicKey: site.publicKey },
          eventId: event.requestId,
        })
      ).suspect,
    ).toBe(true)
    // The integrator's own flag wins over the analyst's label.
    await db.execute(sql`update events set suspect = false where request_id = ${event.requestId}`)
    expect(
      (
        await readFingerprintEvent({
          db,
          caller: { ...site, sitePublicKey: site.publicKey },
          eventId: event.requestId,
        })
      ).suspect,
    ).toBe(false)

    // The device's own export never tells it how an analyst judged it.
    const [browser] = await queryRows<{ browser_id: string }>(
      db,
      sql`select browser_id from events where request_id = ${event.requestId}`,
    )
    const stream = await exportVisitorData({
      db,
      visitorId: event.visitorId,
      browserId: browser?.browser_id ?? '',
    })
    const exported = await new Response(stream).text()
    expect(JSON.parse(exported).events).toHaveLength(1)
    expect(exported).not.toMatch(/visitorLabel|fraud/)

    const { visitorLabel: _label, ...queued } = stored
    const delivery = renderDelivery({
      format: 'tessera',
      payload: { type: 'identification', event: queued },
      secret: 'whsec_test',
      timestamp: 1,
      context: { visitorLabel: 'fraud' },
    })
    expect(JSON.parse(delivery.body).event.visitorLabel).toBe('fraud')
    const v4 = renderDelivery({
      format: 'fingerprint-v4',
      payload: { type: 'identification', event: queued },
      secret: 'whsec_test',
      timestamp: 1,
      context: { visitorLabel: 'fraud' },
    })
    expect(JSON.parse(v4.body).suspect).toBe(true)
  })

  it('reviews a challenged or denied sign-up once: reject labels its device and account fraud', async () => {
    const { db } = database
    await setPolicy(db, { agentProofRule: 'off', suspectScoreRule: 'off', tamperingRule: 'challenge' })
    const challenged = await visit('198.51.100.64')
    await tamper(challenged.requestId)
    expect(
      (await decide(db, { requestId: challenged.requestId, fields: signupFields() }, '198.51.100.64'))
        .outcome,
    ).toBe('challenge')
    const queue = await listReviewQueue({ db })
    expect(queue.decisions.map((decision) => decision.requestId)).toContain(challenged.requestId)

    expect(
      await reviewSignup({ db, requestId: challenged.requestId, verdict: 'reject', operator: 'ana' }),
    ).toEqual({
      review: 'rejected',
      visitorLabel: 'fraud',
      accountLabel: null,
    })
    const again = await httpFailure(
      reviewSignup({ db, requestId: challenged.requestId, verdict: 'approve', operator: 'bo' }),
    )
    expect([again.status, again.message]).toEqual([409, 'This sign-up was already rejected.'])
    expect((await listReviewQueue({ db })).decisions.map((decision) => decision.requestId)).not.toContain(
      challenged.requestId,
    )
    // The next sign-up of that device is denied by the label.
    const comeback = await identifyVisitor({
      db,
      input: { components: syntheticDevice(seed), siteKey: (await home()).publicKey },
      context: { ip: '198.51.100.64', userAgent: 'test' },
    })
    expect(comeback.visitorId).toBe(challenged.visitorId)
    expect(
      (await decide(db, { requestId: comeback.requestId, fields: signupFields() }, '198.51.100.64')).outcome,
    ).toBe('deny')

    // An allowed sign-up is not for review; an unknown one is a 404; nothing changed for either.
    await setPolicy(db, { agentProofRule: 'off', suspectScoreRule: 'off' })
    const allowed = await visit('198.51.100.65')
    await decide(db, { requestId: allowed.requestId, fields: signupFields() }, '198.51.100.65')
    expect(
      (
        await httpFailure(
          reviewSignup({ db, requestId: allowed.requestId, verdict: 'reject', operator: 'ana' }),
        )
      ).status,
    ).toBe(409)
    expect(
      (
        await httpFailure(
          reviewSignup({ db, requestId: 'no-such-request', verdict: 'reject', operator: 'ana' }),
        )
      ).status,
    ).toBe(404)
    const labels = await queryRows(
      db,
      sql`select 1 from visitor_labels where visitor_id = ${allowed.visitorId}`,
    )
    expect(labels).toEqual([])

    // An address that already had an account is refused quietly (the visitor is told "allowed"): not for review.
    const repeat = await visit('198.51.100.69')
    const [taken] = await queryRows<{ email: string }>(
      db,
      sql`select email from signup_decisions where request_id = ${allowed.requestId}`,
    )
    await decide(db, { requestId: repeat.requestId, fields: signupFields(taken?.email) }, '198.51.100.69')
    expect((await storedDecision(repeat.requestId))?.reasons.map((reason) => reason.rule)).toEqual([
      'existingAccount',
    ])
    expect((await listReviewQueue({ db })).decisions.map((decision) => decision.requestId)).not.toContain(
      repeat.requestId,
    )
    const notForReview = await httpFailure(
      reviewSignup({ db, requestId: repeat.requestId, verdict: 'approve', operator: 'ana' }),
    )
    expect(notForReview.status).toBe(409)
  })

  it('undoes a verdict: the sign-up waits again and its labels are as they were, but one changed since stays', async () => {
    const { db } = database
    await setPolicy(db, { agentProofRule: 'off', suspectScoreRule: 'off', tamperingRule: 'challenge' })
    const labelOf = async (visitorId: string) =>
      (
        await queryRows<{ label: string; operator: string; labelled_at: string }>(
          db,
          sql`select label, operator, labelled_at::text from visitor_labels where visitor_id = ${visitorId}`,
        )
      )[0] ?? null
    const queued = async () => (await listReviewQueue({ db })).decisions.map((decision) => decision.requestId)
    const challengedAt = async (ip: string) => {
      const visited = await visit(ip)
      await tamper(visited.requestId)
      await decide(db, { requestId: visited.requestId, fields: signupFields() }, ip)
      return visited
    }

    // No label before: the rejection's fraud label goes again, and the sign-up is back in the queue.
    const first = await challengedAt('198.51.100.71')
    await reviewSignup({ db, requestId: first.requestId, verdict: 'reject', operator: 'ana' })
    expect((await labelOf(first.visitorId))?.label).toBe('fraud')
    expect(await undoReview({ db, requestId: first.requestId, operator: 'ana' })).toEqual({
      visitorLabel: null,
      accountLabel: null,
    })
    expect(await labelOf(first.visitorId)).toBeNull()
    expect(await queued()).toContain(first.requestId)
    // Its device's next sign-up is no longer denied by the label.
    const comeback = await identifyVisitor({
      db,
      input: { components: syntheticDevice(seed), siteKey: (await home()).publicKey },
      context: { ip: '198.51.100.71', userAgent: 'test' },
    })
    expect(comeback.visitorId).toBe(first.visitorId)
    expect(
      (await decide(db, { requestId: comeback.requestId, fields: signupFields() }, '198.51.100.71')).outcome,
    ).toBe('allow')
    // Nothing left to undo; an unknown request is a 404.
    expect((await httpFailure(undoReview({ db, requestId: first.requestId, operator: 'ana' }))).status).toBe(
      409,
    )
    expect(
      (await httpFailure(undoReview({ db, requestId: 'no-such-request', operator: 'ana' }))).status,
    ).toBe(404)

    // A label from before the sign-up, replaced by the review, is put back as it was: who, when, what.
    const second = await challengedAt('198.51.100.72')
    await labelVisitor({
      db,
      visitorId: second.visitorId,
      label: 'good',
      operator: 'bo',
      now: new Date(Date.now() - 3_600_000),
    })
    const before = await labelOf(second.visitorId)
    await reviewSignup({ db, requestId: second.requestId, verdict: 'reject', operator: 'ana' })
    expect((await labelOf(second.visitorId))?.label).toBe('fraud')
    expect((await undoReview({ db, requestId: second.requestId, operator: 'ana' })).visitorLabel).toBe('good')
    expect(await labelOf(second.visitorId)).toEqual(before)

    // A label another analyst set after the review is a later judgement: undoing the verdict keeps it.
    const third = await challengedAt('198.51.100.73')
    await reviewSignup({ db, requestId: third.requestId, verdict: 'reject', operator: 'ana' })
    await labelVisitor({
      db,
      visitorId: third.visitorId,
      label: 'good',
      operator: 'bo',
      now: new Date(Date.now() + 1000),
    })
    expect((await undoReview({ db, requestId: third.requestId, operator: 'ana' })).visitorLabel).toBe('good')
    expect((await labelOf(third.visitorId))?.operator).toBe('bo')
    expect(await queued()).toContain(third.requestId)

    // Only the analyst who gave a verdict takes it back; and a later verdict on the same device,
    // which kept this one's label as its "before", is undone first.
    const fourth = await challengedAt('198.51.100.74')
    await reviewSignup({ db, requestId: fourth.requestId, verdict: 'reject', operator: 'ana' })
    expect((await httpFailure(undoReview({ db, requestId: fourth.requestId, operator: 'bo' }))).status).toBe(
      409,
    )
    const again = await identifyVisitor({
      db,
      input: { components: syntheticDevice(seed), siteKey: (await home()).publicKey },
      context: { ip: '198.51.100.74', userAgent: 'test' },
    })
    expect(again.visitorId).toBe(fourth.visitorId)
    await tamper(again.requestId)
    await decide(db, { requestId: again.requestId, fields: signupFields() }, '198.51.100.74')
    await reviewSignup({ db, requestId: again.requestId, verdict: 'approve', operator: 'bo' })
    expect((await labelOf(fourth.visitorId))?.label).toBe('good')
    const first409 = await httpFailure(undoReview({ db, requestId: fourth.requestId, operator: 'ana' }))
    expect([first409.status, first409.message]).toEqual([
      409,
      'A later verdict on the same device stands: undo that one first, or change the labels instead.',
    ])
    expect((await undoReview({ db, requestId: again.requestId, operator: 'bo' })).visitorLabel).toBe('fraud')
    expect((await undoReview({ db, requestId: fourth.requestId, operator: 'ana' })).visitorLabel).toBeNull()
    expect(await labelOf(fourth.visitorId)).toBeNull()
    expect(await queued()).toEqual(expect.arrayContaining([fourth.requestId, again.requestId]))
  })

  it('keeps a label set after the sign-up when an older sign-up is approved', async () => {
    const { db } = database
    await setPolicy(db, { agentProofRule: 'off', suspectScoreRule: 'off', tamperingRule: 'challenge' })
    const older = await visit('198.51.100.70')
    await tamper(older.requestId)
    await decide(db, { requestId: older.requestId, fields: signupFields() }, '198.51.100.70')
    // Later, another analyst judged the device fraud.
    const later = new Date(Date.now() + 1000)
    await labelVisitor({ db, visitorId: older.visitorId, label: 'fraud', operator: 'bo', now: later })
    expect(
      await reviewSignup({ db, requestId: older.requestId, verdict: 'approve', operator: 'ana' }),
    ).toEqual({
      review: 'approved',
      visitorLabel: 'fraud',
      accountLabel: null,
    })
  })

  it('reviews a sign-up a solved challenge let through, labelling its account, and finds nothing to review of a forgotten visitor', async () => {
    const { db } = database
    await setPolicy(db, { agentProofRule: 'off', suspectScoreRule: 'off', tamperingRule: 'challenge' })
    const solved = await visit('198.51.100.66')
    await tamper(solved.requestId)
    const fields = signupFields()
    const answer = await decide(
      db,
      { requestId: solved.requestId, fields, challenge: await solvedChallenge(db) },
      '198.51.100.66',
    )
    expect(answer.outcome).toBe('allow')
    // Allowed after a solved challenge, the decision is still a challenge to review.
    expect(
      await reviewSignup({ db, requestId: solved.requestId, verdict: 'approve', operator: 'ana' }),
    ).toEqual({
      review: 'approved',
      visitorLabel: 'good',
      accountLabel: 'good',
    })

    const gone = await visit('198.51.100.67')
    await tamper(gone.requestId)
    await decide(db, { requestId: gone.requestId, fields: signupFields() }, '198.51.100.67')
    await forgetVisitor({ db, visitorId: gone.visitorId })
    const reviewed = await reviewSignup({
      db,
      requestId: gone.requestId,
      verdict: 'reject',
      operator: 'ana',
    }).catch((error: unknown) => error)
    // A forget deletes the visitor's sign-up decisions too: nothing is left to review.
    expect(reviewed).toMatchObject({ status: 404 })
  })
})
