import './browser-zod'
import { z } from 'zod'
import { weakPasswordFeedback } from './password-strength'

/**
 * Trims and lower-cases the whole address: addresses that differ only in case are one account.
 * (RFC 5321 lets a mailbox's local part be case-sensitive; no mail provider in use treats it so,
 * and multi-accounting through `Grace@` and `grace@` is the abuse this service exists to stop.)
 */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/**
 * A deliberately plain address: letters (any script), digits and `. _ % + -` before the `@`, then
 * dot-separated labels and a top-level domain of 2+ letters. No quotes, spaces, `<`, `>` or `&`:
 * RFC 5322 allows them, but here they are only ever markup smuggled into the console and emails.
 */
const EMAIL = /^[\p{L}\p{N}._%+-]{1,64}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,63}$/u

/** The sign-up form: one schema for the browser's inline errors and the server's checks. */
export const SignupFields = z
  .object({
    name: z
      .string()
      .transform((value) => value.trim().replace(/\s+/g, ' '))
      .pipe(z.string().min(1, 'Enter your name.').max(100, 'Use at most 100 characters.')),
    email: z
      .string()
      .max(254, 'This email address is too long.')
      .transform(normaliseEmail)
      .pipe(
        z
          .string()
          .regex(EMAIL, 'Enter an email address like name@example.com.')
          .refine((email) => !/^\.|\.\.|\.@/.test(email), 'Enter an email address like name@example.com.'),
      ),
    password: z
      .string()
      .min(12, 'Use at least 12 characters.')
      .max(128, 'Use at most 128 characters.')
      .superRefine((password, context) => {
        // Common passwords are refused even while other fields still have errors.
        if (password.length < 12 || password.length > 128) return
        const weakness = weakPasswordFeedback(password)
        if (weakness) context.addIssue({ code: 'custom', message: weakness })
      }),
    terms: z.literal(true, 'Accept the terms to continue.'),
  })
  // Then the same check knowing the person: their name or mailbox is an easy guess too.
  .superRefine((fields, context) => {
    if (fields.password.length < 12 || fields.password.length > 128) return
    // zxcvbn matches user inputs as lower-case dictionary words: the name, its parts, the mailbox.
    const name = fields.name.toLowerCase()
    const mailbox = fields.email.toLowerCase().split('@')[0] ?? ''
    const personal = [name, name.replace(/\s/g, ''), ...name.split(' '), fields.email.toLowerCase(), mailbox]
    const weakness = weakPasswordFeedback(
      fields.password,
      personal.filter((word) => word.length > 2),
    )
    if (weakness) context.addIssue({ code: 'custom', path: ['password'], message: weakness })
  })
export type SignupFields = z.infer<typeof SignupFields>

/** What the page posts: the fields, the agent's requestId, and a solved challenge when asked. */
export const SignupRequest = z.object({
  fields: z.object({
    name: z.string().max(1000),
    email: z.string().max(1000),
    password: z.string().max(1000),
    terms: z.boolean(),
  }),
  requestId: z.string().min(1, 'The device check did not run; reload the page.').max(64),
  challenge: z.string().max(10_000).optional(),
})
export type SignupRequest = z.infer<typeof SignupRequest>

export type SignupOutcome =
  | { outcome: 'allow'; name: string }
  | { outcome: 'challenge'; kind: 'proofOfWork' | 'emailCode'; message: string }
  | { outcome: 'deny'; message: string }
