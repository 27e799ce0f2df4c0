import { sql } from 'drizzle-orm'
import { expect, it } from 'vitest'
import { syntheticDevice } from '../../../tests/support/synthetic-devices'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { identifyVisitor } from '../identification/identify-visitor'
import { exportRecords } from './export-records'

async function read(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text()
}

describeOnEachEngine('exportRecords', (handle) => {
  it('streams every event a page at a time, newest first, with attacker-written cells made inert', async () => {
    const identified = []
    for (let seed = 0; seed < 5; seed++)
      identified.push(
        await identifyVisitor({
          db: handle.db,
          input: {
            components: syntheticDevice(900 + seed),
            linkedId: seed === 2 ? '=HYPERLINK("https://evil.example","click")' : `account-${seed}`,
            url: 'https://shop.example/a,b"c',
          },
          context: { ip: '198.51.100.90', userAgent: 'test' },
        }),
      )
    const csv = await read(
      exportRecords(handle.db, { kind: 'events', format: 'csv', signal: 'all', outcome: 'all' }, 2),
    )
    const lines = csv.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^time,request_id,visitor_id,/)
    expect(lines).toHaveLength(6)
    // Newest first, each once, across pages of two.
    const ids = lines.slice(1).map((line) => line.split(',')[1])
    expect(ids).toEqual(identified.map((event) => event.requestId).reverse())
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example"",""click"")"`)
    expect(csv).toContain('"https://shop.example/a,b""c"')

    const json = JSON.parse(
      await read(
        exportRecords(handle.db, { kind: 'events', format: 'json', signal: 'all', outcome: 'all' }, 2),
      ),
    )
    expect(json.map((event: { requestId: string }) => event.requestId)).toEqual(ids)
    expect(json[2].linkedId).toBe('=HYPERLINK("https://evil.example","click")')
  })

  it('reads no further than its reader: rows deleted while the reader waits are never read', async () => {
    for (let seed = 0; seed < 12; seed++)
      await identifyVisitor({
        db: handle.db,
        input: { components: syntheticDevice(950 + seed) },
        context: { ip: '198.51.100.91', userAgent: 'test' },
      })
    const reader = exportRecords(
      handle.db,
      { kind: 'events', format: 'csv', signal: 'all', outcome: 'all' },
      2,
    ).getReader()
    const decoder = new TextDecoder()
    let csv = ''
    for (let chunk = 0; chunk < 2; chunk++) csv += decoder.decode((await reader.read()).value)
    // The reader stops a while (a slow disk or network), and the events go meanwhile: a stream that
    // had read ahead would still hand them over.
    await new Promise((resolve) => setTimeout(resolve, 300))
    await handle.db.execute(sql`delete from events`)
    for (let next = await reader.read(); !next.done; next = await reader.read())
      csv += decoder.decode(next.value)
    const rows = csv.trimEnd().split('\n').length - 1
    // The page read, and at most one more queued for the reader (the stream's high-water mark).
    expect(rows).toBeGreaterThanOrEqual(2)
    expect(rows).toBeLessThanOrEqual(4)
  })

  it("exports one visitor's events and the sign-up decisions, and an empty JSON export is an empty array", async () => {
    const first = await identifyVisitor({
      db: handle.db,
      input: { components: syntheticDevice(950) },
      context: { ip: '198.51.100.91', userAgent: 'test' },
    })
    await identifyVisitor({
      db: handle.db,
      input: { components: syntheticDevice(950) },
      context: { ip: '198.51.100.91', userAgent: 'test' },
    })
    const history = JSON.parse(
      await read(
        exportRecords(
          handle.db,
          { kind: 'visitor', format: 'json', signal: 'all', outcome: 'all', visitorId: first.visitorId },
          1,
        ),
      ),
    )
    expect(history).toHaveLength(2)
    expect(new Set(history.map((event: { visitorId: string }) => event.visitorId))).toEqual(
      new Set([first.visitorId]),
    )
    expect(
      await read(
        exportRecords(handle.db, { kind: 'decisions', format: 'json', signal: 'all', outcome: 'all' }),
      ),
    ).toBe('[]\n')
    await handle.db.execute(
      sql`insert into signup_decisions (request_id, visitor_id, ip, email, outcome, reasons, challenge_solved)
          values (${first.requestId}, ${first.visitorId}, '198.51.100.91', '+1@example.com', 'deny', '[]'::jsonb, false)`,
    )
    // A challenge that attempt answered says so, with the answer's outcome, in its last two cells.
    await handle.db.execute(
      sql`insert into signup_decisions (request_id, visitor_id, email, outcome, reasons, superseded_by)
          values ('req_answered', ${first.visitorId}, 'answered@example.com', 'challenge', '[]'::jsonb, ${first.requestId})`,
    )
    const decisions = await read(
      exportRecords(handle.db, { kind: 'decisions', format: 'csv', signal: 'all', outcome: 'all' }),
    )
    expect(decisions.split('\n')[0]).toBe(
      'time,request_id,visitor_id,ip,email,outcome,reasons,challenge_solved,account_id,visitor_label,account_label,review,answered_by,answer_outcome',
    )
    expect(decisions).toContain(",'+1@example.com,deny,")
    expect(decisions.split('\n').find((line) => line.includes('req_answered'))).toMatch(
      new RegExp(`,${first.requestId},deny$`),
    )
    // The JSON export names the answer as the console's list does; other decisions have none.
    const json = JSON.parse(
      await read(
        exportRecords(handle.db, { kind: 'decisions', format: 'json', signal: 'all', outcome: 'all' }),
      ),
    ) as { requestId: string; answer: unknown }[]
    expect(json.find((row) => row.requestId === 'req_answered')?.answer).toEqual({
      requestId: first.requestId,
      outcome: 'deny',
    })
    expect(json.find((row) => row.requestId === first.requestId)?.answer).toBeNull()
  })

  it('pages decisions stored to the microsecond without skipping those of one millisecond', async () => {
    await handle.db.execute(sql`delete from signup_decisions`)
    for (const [id, micros] of [
      ['d-a', '123456'],
      ['d-b', '123400'],
      ['d-c', '123300'],
    ])
      await handle.db.execute(
        sql`insert into signup_decisions (request_id, email, outcome, reasons, created_at)
            values (${id}, ${`${id}@example.com`}, 'allow', '[]'::jsonb, ${`2026-11-26T10:00:00.${micros}Z`}::timestamptz)`,
      )
    const json = JSON.parse(
      await read(
        exportRecords(handle.db, { kind: 'decisions', format: 'json', signal: 'all', outcome: 'all' }, 1),
      ),
    )
    expect(json.map((decision: { requestId: string }) => decision.requestId).sort()).toEqual([
      'd-a',
      'd-b',
      'd-c',
    ])
  })
})
