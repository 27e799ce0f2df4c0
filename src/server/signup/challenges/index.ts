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
    async issue({ db, email, mailer, now }) {
      if (!mailer) throw new Error('The email-code challenge needs TESSERA_SMTP_URL.')
      const sent = await issueEmailCode({ db, email, mailer, now })
      return sent === 'sent'
        ? `We sent a 6-digit code to ${email}. Enter it to finish creating your account.`
        : `A code was sent to ${email} a short while ago: enter that one (it works for 10 minutes).`
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
