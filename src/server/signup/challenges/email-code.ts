import 'server-only'
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { emailCodes } from '../../db/schema'
import { HttpError } from '../../http/errors'
import { addressKey } from '../../rate-limit/address-key'
import { consumeRateLimit, type Limit, secondsUntilAll } from '../../rate-limit/rate-limiter'
import { getServerSecret } from '../../settings/server-secret'
import { mailboxOf } from '../mailbox-of'
import type { Mailer } from './mailer'

/** How long a code can be used, and how many wrong guesses kill it. */
export const CODE_MINUTES = 10
export const MAX_WRONG_GUESSES = 5
/**
 * Codes one inbox may be sent in an hour (`grace+1@` is `grace@`'s inbox): sign-ups cannot be used to
 * flood someone's mailbox, and guesses stay at 5 per code, 15 an hour.
 */
export const CODES_PER_INBOX: Limit = { name: 'email-code-inbox', points: 3, durationSeconds: 3600 }
/** Codes one client address may have sent in an hour, whatever the inboxes: the server's mail is not anyone's to spend. */
export const CODES_PER_ADDRESS: Limit = { name: 'email-code-address', points: 10, durationSeconds: 3600 }

async function hashOf(db: Database, email: string, code: string): Promise<string> {
  const key = await getServerSecret(db, 'email_code_key')
  return createHmac('sha256', key).update(`${email}\n${code}`).digest('base64url')
}

/**
 * Mails a new 6-digit code to `email` (already normalised) and keeps its keyed hash. When the
 * inbox, or the client's address, had its hour's codes, nothing is sent: `throttled`, with the
 * seconds until one may be. A code counts once it is sent: a mail server that failed spends nothing.
 */
export async function issueEmailCode({
  db,
  email,
  mailer,
  ip = null,
  now = new Date(),
}: {
  db: Database
  email: string
  mailer: Mailer
  /** The client's address, whose codes an hour are bounded too. */
  ip?: string | null
  now?: Date
}): Promise<{ sent: true } | { sent: false; retryAfterSeconds: number }> {
  const budgets = [
    { limit: CODES_PER_INBOX, key: mailboxOf(email) },
    ...(ip ? [{ limit: CODES_PER_ADDRESS, key: addressKey(ip) }] : []),
  ]
  const retryAfterSeconds = await secondsUntilAll(db, budgets)
  if (retryAfterSeconds > 0) return { sent: false, retryAfterSeconds }
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0')
  await db.insert(emailCodes).values({
    id: randomBytes(12).toString('base64url'),
    email,
    codeHash: await hashOf(db, email, code),
    expiresAt: new Date(now.getTime() + CODE_MINUTES * 60_000).toISOString(),
    createdAt: now.toISOString(),
  })
  await mailer.send({
    to: email,
    subject: `Your sign-up code: ${code}`,
    text: `Your code is ${code}. Enter it on the sign-up page to finish creating your account. It works for ${CODE_MINUTES} minutes.\n\nIf you did not sign up, ignore this message: nothing is created without the code.`,
  })
  for (const budget of budgets) {
    try {
      await consumeRateLimit({ db, ...budget })
    } catch (error) {
      // A race sent one more than the hour's budget: it is spent all the same.
      if (!(error instanceof HttpError && error.code === 'rate_limited')) throw error
    }
  }
  return { sent: true }
}

/**
 * Whether `code` is the latest live code mailed to `email`: unexpired, unused, under its wrong
 * guesses. A right code is spent; a wrong one counts against the code (five, and it is dead).
 */
export async function verifyEmailCode({
  db,
  email,
  code,
  now = new Date(),
}: {
  db: Database
  email: string
  code: string
  now?: Date
}): Promise<boolean> {
  const [latest] = await db
    .select({ id: emailCodes.id, codeHash: emailCodes.codeHash })
    .from(emailCodes)
    .where(
      and(
        eq(emailCodes.email, email),
        isNull(emailCodes.usedAt),
        gt(emailCodes.expiresAt, now.toISOString()),
        lt(emailCodes.wrongGuesses, MAX_WRONG_GUESSES),
      ),
    )
    .orderBy(desc(emailCodes.createdAt))
    .limit(1)
  if (!latest) return false
  // A guess is counted before it is checked, in one statement: parallel guesses cannot pass five.
  const [counted] = await db
    .update(emailCodes)
    .set({ wrongGuesses: sql`${emailCodes.wrongGuesses} + 1` })
    .where(
      and(
        eq(emailCodes.id, latest.id),
        isNull(emailCodes.usedAt),
        lt(emailCodes.wrongGuesses, MAX_WRONG_GUESSES),
      ),
    )
    .returning({ id: emailCodes.id })
  if (!counted) return false
  const given = Buffer.from(await hashOf(db, email, code.trim()))
  const expected = Buffer.from(latest.codeHash)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false
  // Right: spent once (of two requests racing with the right code, one wins), the guess not counted.
  const spent = await db
    .update(emailCodes)
    .set({ usedAt: now.toISOString(), wrongGuesses: sql`${emailCodes.wrongGuesses} - 1` })
    .where(and(eq(emailCodes.id, latest.id), isNull(emailCodes.usedAt)))
    .returning({ id: emailCodes.id })
  return spent.length > 0
}
