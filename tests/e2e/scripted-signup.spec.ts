import { request as httpRequest } from 'node:http'
import { expect, test } from '@playwright/test'
import { setPolicy, signIn, uniqueEmail } from '../support/helpers'
import { asComponents, realisticDevice } from '../support/realistic-devices'

// Issue 27, item 10: a scripted sign-up with no browser, no User-Agent and fabricated components
// got bot = notDetected and was allowed. Through the production front, as a script sends it.

/** A POST with exactly these headers (node:http adds no User-Agent or Accept-Language of its own). */
function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  const base = new URL(test.info().project.use.baseURL ?? '')
  const payload = Buffer.from(JSON.stringify(body))
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        )
      },
    )
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

async function scriptedSignup(seed: number, headers: Record<string, string>) {
  const identified = await postJson(
    '/api/v1/identify',
    { components: asComponents(realisticDevice(seed)) },
    headers,
  )
  expect(identified.status).toBe(200)
  const requestId = String(identified.body.requestId)
  const signup = await postJson(
    '/api/registration',
    {
      requestId,
      fields: {
        name: 'Script',
        email: uniqueEmail('script'),
        password: 'cobalt-meridian-lantern-77',
        terms: true,
      },
    },
    headers,
  )
  expect(signup.status).toBe(200)
  return {
    requestId,
    outcome: signup.body.outcome,
    signals: identified.body.signals as Record<string, { result: unknown; reasons: string[] }>,
  }
}

test.afterAll(async ({ request }) => {
  await setPolicy(request, {})
})

test('a script with no User-Agent and fabricated components is flagged as a bot and not let in', async ({
  request,
}) => {
  await setPolicy(request, {})
  const { requestId, outcome, signals } = await scriptedSignup(27_010, {})
  expect(signals.bot?.result, JSON.stringify(signals.bot)).toBe('bad')
  expect(signals.bot?.reasons.join(' ')).toMatch(/User-Agent/)
  expect(['deny', 'challenge']).toContain(outcome)
  // The console's decision list shows it with its reasons.
  await signIn(request)
  const decisions = await (await request.get('/api/console/decisions')).json()
  const decision = JSON.stringify(decisions).includes(requestId)
  expect(decision).toBe(true)
})

test('a script that copies a browser’s headers but never ran the agent is challenged', async ({
  request,
}) => {
  await setPolicy(request, {})
  const device = realisticDevice(27_011)
  const { outcome, signals } = await scriptedSignup(27_011, {
    'user-agent': String(device.userAgent),
    'accept-language': `${(device.languages as string[]).join(',')};q=0.9`,
  })
  expect(signals.agentProof?.result).toBe('missing')
  expect(outcome).toBe('challenge')
})
