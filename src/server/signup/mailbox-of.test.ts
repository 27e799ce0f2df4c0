import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { queryRows } from '../db/client'
import { mailboxOf } from './mailbox-of'

const examples: [string, string][] = [
  ['grace@example.com', 'grace@example.com'],
  ['grace+shop@example.com', 'grace@example.com'],
  ['grace+a+b@example.com', 'grace@example.com'],
  ['g.race@example.com', 'g.race@example.com'],
  ['g.race+2@gmail.com', 'grace@gmail.com'],
  ['g.r.a.c.e@googlemail.com', 'grace@gmail.com'],
  ['first.last@outlook.com', 'first.last@outlook.com'],
  ['+tagonly@example.com', '@example.com'],
  ['grace@mail.gmail.com', 'grace@mail.gmail.com'],
]

describe('mailboxOf', () => {
  it('drops a +tag everywhere and dots only where the provider ignores them', () => {
    for (const [email, mailbox] of examples) expect(mailboxOf(email), email).toBe(mailbox)
  })
})

describeOnEachEngine('the mailbox backfill', (handle) => {
  it("agrees with the migration's backfill, which computes it in SQL", async () => {
    const migration = readFileSync(
      path.join(import.meta.dirname, '../db/migrations/0025_account_mailbox.sql'),
      'utf8',
    )
    const expression = /SET "mailbox" = (CASE[\s\S]*?END)/.exec(migration)?.[1]
    if (!expression) throw new Error('the backfill expression was not found')
    for (const [email] of examples) {
      const [row] = await queryRows<{ mailbox: string }>(
        handle.db,
        sql`select ${sql.raw(expression)} as mailbox from (select ${email}::text as "email_normalised") as accounts`,
      )
      expect(row?.mailbox, email).toBe(mailboxOf(email))
    }
  })
})
