import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { openTestDatabase } from '../../../tests/support/test-database'
import { type DatabaseHandle, queryRows } from '../db/client'
import { handle } from '../http/respond'
import { identifyVisitor } from './identify-visitor'

// Every log line the server writes in this file, as JSON text, through the real logger and its
// serializers (the suite's own logger is silent).
const lines = vi.hoisted(() => [] as string[])
vi.mock('../log', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../log')>()
  const log = actual.createLog({ write: (line: string) => void lines.push(line) })
  log.level = 'info'
  return { ...actual, log }
})

describe('a batch with one poisoned job, on the real embedded database', () => {
  let database: DatabaseHandle

  beforeAll(async () => {
    database = await openTestDatabase('pglite', '')
  })
  afterAll(() => database.close())

  it('stores its neighbours and logs a count and a code, never a request payload', async () => {
    const context = { ip: '198.51.100.23', userAgent: 'secret-agent/1.0' }
    // A lone surrogate that bypasses the request parser: the jsonb insert of the whole batch fails.
    const jobs = Array.from({ length: 6 }, (_, index) => ({
      components: syntheticDevice(500 + index),
      linkedId: `private-account-${index}`,
      url: `https://shop.example/private-page-${index}`,
      tag: index === 3 ? { note: 'poison\ud800' } : { note: `private-note-${index}` },
    }))
    // Through `handle`, as the route answers and logs an error.
    const answers = await Promise.all(
      jobs.map((input) =>
        handle(async () => Response.json(await identifyVisitor({ db: database.db, input, context })))(),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 500, 200, 200])
    const [stored] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from events`)
    expect(stored?.n).toBe(5)

    const logged = lines.join('')
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual([
      'batch failed; its jobs run again one by one',
      'unhandled route error',
    ])
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 40, jobs: 6, code: expect.any(String) })
    for (const secret of [
      'private-account',
      'private-page',
      'private-note',
      'poison',
      'secret-agent',
      '198.51.100.23',
    ])
      expect(logged).not.toContain(secret)
    for (const line of lines) expect(line.length).toBeLessThan(8_000)
  })
})
