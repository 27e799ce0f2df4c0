import { afterAll, beforeEach, expect, it } from 'vitest'
import { DeviceExport } from '@/contracts/device'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { closeProcessDatabase, freshProcessDatabase } from '../../../../../../tests/support/process-database'
import { syntheticDevice } from '../../../../../../tests/support/synthetic-devices'
import { POST as identify } from '../../identify/route'
import { GET as exportDevice } from './route'

const base = 'http://127.0.0.1:3000'

beforeEach(async () => {
  await ensureDefaultSite({ db: await freshProcessDatabase(), origins: [] })
})

afterAll(closeProcessDatabase)

async function identifyWith(headers: Record<string, string>) {
  const response = await identify(
    new Request(`${base}/api/v1/identify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.4', ...headers },
      body: JSON.stringify({ components: syntheticDevice(7301), linkedId: 'account-7301' }),
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as { storedToken: string }
}

it('answers "Export my data" exactly as its contract describes it', async () => {
  const { storedToken } = await identifyWith({})
  const cookie = `tessera_vid=${storedToken}`
  // A second visit by the same browser: one event new, one matched by its token.
  await identifyWith({ cookie })

  const response = await exportDevice(new Request(`${base}/api/v1/device/export`, { headers: { cookie } }))
  expect(response.status).toBe(200)
  const exported = await response.json()
  // Parsing drops no extra field (zod strips unknown keys, so an extra one makes the two differ).
  expect(DeviceExport.parse(exported)).toEqual(exported)
  expect(exported.events.map((event: { method: string }) => event.method)).toEqual(['token', 'new'])
  expect(exported.visitor.fingerprintDigests).not.toBeNull()
})
