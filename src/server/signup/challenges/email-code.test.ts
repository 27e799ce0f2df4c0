import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { changeEventSignals } from '../../../../tests/support/event-signals'
import { startSmtpCapture } from '../../../../tests/support/smtp-capture'
import { describeOnEachEngine } from '../../../../tests/support/test-database'
import { queryRows } from '../../db/client'
import { purgeExpiredData } from '../../retention/purge-expired-data'
import { decideSignup } from '../decide-signup'
import { updateSignupPolicy } from '../policy/update-policy'
import { httpFailure, identifyDevice, setPolicy, signupFields } from '../test-signup'
import { issueEmailCode, MAX_WRONG_GUESSES, verifyEmailCode } from './email-code'
import { smtpMailer } from './mailer'

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>
beforeAll(async () => {
  smtp = await startSmtpCapture()
})
afterAll(() => smtp.close())

let seed = 9400

describeOnEachEngine('the email-code challenge', (database) => {
  const mailer = () => smtpMailer(smtp.url, 'Tessera <no-reply@test.invalid>')

  /** A sign-up attempt from a fresh identification of one tampered device (the tampering rule challenges). */
  async function attempt(device: number, fields: ReturnType<typeof signupFields>, challenge?: string) {
    const ip = '198.51.100.120'
    const event = await identifyDevice(database.db, { seed: device, ip })
    await changeEventSignals(database.db, event.requestId, (signals) => ({
      ...signals,
      tampering: { result: true, reasons: [] },
    }))
    return decideSignup({
      db: database.db,
      input: { requestId: event.requestId, fields, ...(challenge && { challenge }) },
      context: { ip, mailer: mailer() },
    })
  }

  it('mails a code to a challenged sign-up, refuses a wrong one without a new mail, and lets the right one create the account once', async () => {
    const { db } = database
    await setPolicy(db, { agentProofRule: 'off', suspectScoreRule: 'off', challengeKind: 'emailCode' })
    const device = ++seed
    const fields = signupFields(`code-${device}@example.com`)
    const first = await attempt(device, fields)
    expect(first).toEqual({
      outcome: 'challenge',
      kind: 'emailCode',
      message: `We sent a 6-digit code to ${fields.email}. Enter it to finish creating your account.`,
    })
    const code = smtp.codeFor(fields.email)
    expect(code).toMatch(/^\d{6}$/)
    // Only a keyed hash is kept.
    const stored = await queryRows<{ code_hash: string }>(
      db,
      sql`select code_hash from email_codes where email = ${fields.email}`,
    )
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored)).not.toContain(code)

    const mailsBefore = smtp.mails.length
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    expect(await attempt(device, fields, wrong)).toMatchObject({
      outcome: 'challenge',
      message: expect.stringMatching(/^That code did not work/),
    })
    expect(smtp.mails.length).toBe(mailsBefore)

    expect(await attempt(device, fields, code)).toEqual({ outcome: 'allow', name: 'Grace Hopper' })
    const accounts = await queryRows(db, sql`select 1 from accounts where email_normalised = ${fields.email}`)
    expect(accounts).toHaveLength(1)
    // Spent: the same code does not pass a second time.
    expect(await attempt(device, fields, code)).toMatchObject({
      outcome: 'challenge',
      message: expect.stringMatching(/^That code did not work/),
    })
  })

  it('kills a code after five wrong guesses, and mails one inbox at most three codes an hour', async () => {
    const { db } = database
    const email = `guess-${++seed}@example.com`
    expect(await issueEmailCode({ db, email, mailer: mailer() })).toEqual({ sent: true })
    const code = smtp.codeFor(email) ?? ''
    const wrong = code === '000000' ? '000001' : '000000'
    for (let guess = 0; guess < MAX_WRONG_GUESSES; guess++)
      expect(await verifyEmailCode({ db, email, code: wrong })).toBe(false)
    expect(await verifyEmailCode({ db, email, code })).toBe(false)

    // The inbox (its +tags and all) had its hour's codes: nothing more is sent.
    expect(await issueEmailCode({ db, email: email.replace('@', '+a@'), mailer: mailer() })).toEqual({
      sent: true,
    })
    expect(await issueEmailCode({ db, email: email.replace('@', '+b@'), mailer: mailer() })).toEqual({
      sent: true,
    })
    const sent = smtp.mails.length
    expect(await issueEmailCode({ db, email: email.replace('@', '+c@'), mailer: mailer() })).toMatchObject({
      sent: false,
      retryAfterSeconds: expect.any(Number),
    })
    expect(smtp.mails.length).toBe(sent)
    // An expired code does not pass.
    const late = new Date(Date.now() + 11 * 60_000)
    expect(
      await verifyEmailCode({
        db,
        email: email.replace('@', '+b@'),
        code: smtp.codeFor(email.replace('@', '+b@')) ?? '',
        now: late,
      }),
    ).toBe(false)
  })

  it('spends nothing when the mail server fails, and bounds the codes one client address has sent', async () => {
    const { db } = database
    const email = `failing-${++seed}@example.com`
    const broken = { send: () => Promise.reject(new Error('mail server down')) }
    await expect(issueEmailCode({ db, email, mailer: broken })).rejects.toThrow('mail server down')
    await expect(issueEmailCode({ db, email, mailer: broken })).rejects.toThrow('mail server down')
    await expect(issueEmailCode({ db, email, mailer: broken })).rejects.toThrow('mail server down')
    expect(await issueEmailCode({ db, email, mailer: mailer() })).toEqual({ sent: true })

    // One address asking codes for ten inboxes, then an eleventh.
    const ip = '192.0.2.99'
    for (let inbox = 0; inbox < 10; inbox++)
      expect(
        await issueEmailCode({ db, email: `spray-${seed}-${inbox}@example.com`, mailer: mailer(), ip }),
      ).toEqual({
        sent: true,
      })
    expect(
      await issueEmailCode({ db, email: `spray-${seed}-10@example.com`, mailer: mailer(), ip }),
    ).toMatchObject({
      sent: false,
    })
  })

  it('purges a code once it has expired', async () => {
    const { db } = database
    const email = `purged-${++seed}@example.com`
    await issueEmailCode({ db, email, mailer: mailer() })
    const count = async () =>
      (await queryRows(db, sql`select 1 from email_codes where email = ${email}`)).length
    await purgeExpiredData({ db, days: 30, now: new Date(Date.now() + 5 * 60_000) })
    expect(await count()).toBe(1)
    await purgeExpiredData({ db, days: 30, now: new Date(Date.now() + 11 * 60_000) })
    expect(await count()).toBe(0)
  })

  it('refuses to save the email challenge when no mail server is set', async () => {
    const { db } = database
    const { defaultSignupPolicy } = await import('@/contracts/signup-policy')
    const refused = await httpFailure(
      updateSignupPolicy({
        db,
        operator: 'admin',
        policy: { ...defaultSignupPolicy, challengeKind: 'emailCode' },
      }),
    )
    expect(refused.status).toBe(400)
    expect(refused.details).toEqual({ fields: { challengeKind: expect.stringMatching(/TESSERA_SMTP_URL/) } })
  })
})
