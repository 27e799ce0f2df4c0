import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { getDb, queryRows, selectRows } from '@/server/db/client'
import { eventComponents } from '@/server/identification/component-snapshots'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { asComponents, realisticDevice } from '../../../../../tests/support/realistic-devices'
import { GET as exportDevice } from '../device/export/route'
import { POST } from './route'

// Issue 27, item 20: 60 KB of junk components were stored verbatim with each event, and the
// export repeated them. Components are now held to the shapes the agent declares.

const url = 'http://127.0.0.1:3000/api/v1/identify'

function post(body: unknown) {
  return POST(
    new Request(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.27' },
    }),
  )
}

async function storedComponents(requestId: string) {
  const [row] = await selectRows(
    await getDb(),
    { components: eventComponents('events') },
    (select) => sql`select ${select} from events where request_id = ${requestId}`,
  )
  return row && { components: row.components, bytes: Buffer.byteLength(JSON.stringify(row.components)) }
}

const junk = (length: number) => 'j'.repeat(length)

/** A real device's components, then junk: unknown names, wrong shapes, oversized values. */
function junkPayload(seed: number) {
  return {
    ...asComponents(realisticDevice(seed)),
    junkOne: { value: junk(9_000), duration: 1 },
    junkTwo: { value: { nested: junk(9_000) }, duration: 1 },
    userAgent: { value: junk(9_000), duration: 1 },
    fonts: { value: Array.from({ length: 400 }, (_, at) => `${junk(20)}${at}`), duration: 1 },
    screen: { value: { width: junk(5_000) }, duration: 1 },
    audio: { error: junk(480), duration: 1 },
    speechVoices: { value: Array.from({ length: 40 }, () => junk(200)), duration: 1 },
  }
}

beforeAll(async () => {
  await ensureDefaultSite({ db: await getDb(), origins: [] })
})

describe('components are held to the shapes the agent declares', () => {
  it('stores a real device’s components as sent', async () => {
    const components = asComponents(realisticDevice(2701))
    const response = await post({ components })
    expect(response.status).toBe(200)
    const stored = await storedComponents((await response.json()).requestId)
    expect(stored?.components).toEqual(components)
  })

  it('drops unknown components and values of the wrong shape or size, and caps what is stored', async () => {
    const payload = junkPayload(2702)
    const body = JSON.stringify({ components: payload })
    expect(body.length).toBeGreaterThan(50_000)
    const response = await post({ components: payload })
    expect(response.status).toBe(200)
    const { requestId, signals } = await response.json()
    const stored = await storedComponents(requestId)
    expect(Object.keys(stored?.components ?? {})).not.toContain('junkOne')
    expect(Object.keys(stored?.components ?? {})).not.toContain('junkTwo')
    for (const name of ['userAgent', 'fonts', 'screen', 'speechVoices'])
      expect(stored?.components, name).not.toHaveProperty(name)
    // An error message is the agent's own short text, cut to size.
    expect(JSON.stringify(stored?.components?.audio).length).toBeLessThan(200)
    // The untouched real components are kept.
    expect(stored?.components?.timezone).toEqual(asComponents(realisticDevice(2702)).timezone)
    expect(stored?.bytes).toBeLessThan(8_000)
    // What failed its shape is named among the bot detector's reasons.
    expect(JSON.stringify(signals.bot.reasons)).toMatch(/shape/)
  })

  it('keeps the export of such a browser small', async () => {
    const response = await post({ components: junkPayload(2703) })
    const { storedToken } = await response.json()
    const exported = await exportDevice(
      new Request('http://127.0.0.1:3000/api/v1/device/export', {
        headers: { cookie: `tessera_vid=${storedToken}` },
      }),
    )
    expect(exported.status).toBe(200)
    const text = await exported.text()
    // Nothing longer than an error message’s cut (160 characters) of the junk is left.
    expect(text).not.toContain(junk(161))
    expect(text.length).toBeLessThan(20_000)
  })

  it('refuses a payload with no component the agent collects, and stores nothing', async () => {
    const [before] = await queryRows<{ n: number }>(await getDb(), sql`select count(*)::int as n from events`)
    const response = await post({
      components: { probe: { value: 1, duration: 0 }, other: { value: 'x', duration: 0 } },
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe('invalid_request')
    const [after] = await queryRows<{ n: number }>(await getDb(), sql`select count(*)::int as n from events`)
    expect(after?.n).toBe(before?.n)
  })
})
