import fc from 'fast-check'
import { beforeAll, describe } from 'vitest'
import { GET as challenge } from '@/app/api/registration/challenge/route'
import { POST as register } from '@/app/api/registration/route'
import { POST as identify } from '@/app/api/v1/identify/route'
import { getDb } from '@/server/db/client'
import { getServerSecret } from '@/server/settings/server-secret'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { syntheticDevice } from '../../support/synthetic-devices'
import { edge, type FuzzEndpoint, itFuzzesEach } from './fuzz-harness'

let requestIds: string[] = []

beforeAll(async () => {
  const db = await getDb()
  await ensureDefaultSite({ db, origins: [] })
  // Server secrets are made on first use; made here, the first refused case does not count them.
  for (const name of ['device_mark_secret', 'rate_limit_secret', 'challenge_hmac_key'])
    await getServerSecret(db, name)
  for (let seed = 0; seed < 4; seed++) {
    const response = await identify(
      new Request('http://127.0.0.1:3000/api/v1/identify', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
        body: JSON.stringify({ components: syntheticDevice(seed) }),
      }),
    )
    requestIds = [...requestIds, (await response.json()).requestId]
  }
})

const endpoints: FuzzEndpoint[] = [
  {
    method: 'POST',
    path: '/api/registration',
    handler: register,
    body: fc.record(
      {
        fields: fc.record(
          {
            name: edge.plausibleText,
            email: fc.oneof(fc.emailAddress(), edge.text),
            password: fc.oneof(fc.constant('correct horse battery staple'), edge.plausibleText),
            terms: fc.oneof(fc.constant(true), edge.value),
          },
          { requiredKeys: [] },
        ),
        requestId: fc.oneof(
          fc.nat().map((index) => requestIds[index % requestIds.length] ?? ''),
          edge.plausibleText,
        ),
        challenge: edge.plausibleText,
      },
      { requiredKeys: [] },
    ),
  },
  { method: 'GET', path: '/api/registration/challenge', handler: challenge },
]

describe('fuzz: the protected sign-up', () => {
  itFuzzesEach(endpoints)
})
