import 'server-only'
import type { ChallengeKind } from '@/contracts/signup-policy'
import type { Database } from '../../db/client'
import { log } from '../../log'
import { issueEmailCode, verifyEmailCode } from './email-code'
import type { Mailer } from './mailer'
import { verifyChallenge } from './proof-of-work'

/** What a challenge knows of the sign-up it is for. */
export interface ChallengeContext {
  db: Database
  /** The address as normalised. */
  email: string
  mailer: Mailer | null
  /** The client's address (its codes an hour are bounded). */
  ip: string | null
  now: Date
}

/**
 * A kind of step-up a challenged sign-up must pass: it starts (and says what the visitor is to do),
 * then checks the answer the next attempt brings. A new kind is one entry here and one in the
 * policy's `challengeKind`.
 */
export interface Challenge {
  issue(context: ChallengeContext): Promise<string>
  verify(context: ChallengeContext, answer: string): Promise<boolean>
  /** What a wrong answer is told, when it must not start a new challenge (a new mail); null: start one. */
  wrongAnswer: string | null
}

export const challenges: Record<ChallengeKind, Challenge> = {
  /** An ALTCHA puzzle the browser solves: slows scripts down, stops none. */
  proofOfWork: {
    issue: async () => 'Please confirm you are human: your browser will solve a short puzzle.',
    verify: ({ db }, answer) => verifyChallenge(db, answer),
    wrongAnswer: null,
  },
  /** A 6-digit code mailed to the address: the person must receive mail there. */
  emailCode: {
    async issue({ db, email, mailer, ip, now }) {
      if (!mailer) throw new Error('The email-code challenge needs TESSERA_SMTP_URL.')
      const issued = await issueEmailCode({ db, email, mailer, ip, now })
      if (issued.sent) return `We sent a 6-digit code to ${email}. Enter it to finish creating your account.`
      const minutes = Math.ceil(issued.retryAfterSeconds / 60)
      return `Several codes were sent lately, so no new one was: enter the latest code sent to ${email} if it still works (10 minutes), or ask for a new one in ${minutes} minute${minutes === 1 ? '' : 's'}.`
    },
    verify: ({ db, email, now }, answer) => verifyEmailCode({ db, email, code: answer, now }),
    wrongAnswer:
      'That code did not work: it may be mistyped, expired or already used. Check the latest mail, or ask for a new code.',
  },
}

/** The kind the policy asks for, or the puzzle when mail cannot be sent (TESSERA_SMTP_URL unset since). */
export function challengeKindFor(asked: ChallengeKind, mailer: Mailer | null): ChallengeKind {
  if (asked === 'emailCode' && !mailer) {
    log.warn(
      'The sign-up policy asks for email codes but TESSERA_SMTP_URL is unset: a puzzle is asked instead.',
    )
    return 'proofOfWork'
  }
  return asked
}
