// Security, third pass, item 15: a site's answers (visitorFound, velocity, history, suspect score)
// reflect only its own traffic; sites share visitor identity only when an operator groups them.
import { beforeAll, expect, it } from 'vitest'
import { getDb } from '@/server/db/client'
import { createSite } from '@/server/sites/create-site'
import { ensureDefaultSite } from '@/server/sites/ensure-default-site'
import { setSiteWorkspace } from '@/server/sites/set-site-workspace'
import { syntheticDevice } from '../../../../../tests/support/synthetic-devices'
import { POST } from './route'

const url = 'http://127.0.0.1:3000/api/v1/identify'

async function identify(siteKey: string, seed: number, cookie?: string) {
  const response = await POST(
    new Request(url, {
      method: 'POST',
      body: JSON.stringify({ components: syntheticDevice(seed), siteKey }),
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': '198.51.100.40',
        ...(cookie ? { cookie } : {}),
      },
    }),
  )
  expect(response.status).toBe(200)
  const body = (await response.json()) as {
    visitorId: string
    visitorFound: boolean
    signals: { velocity: { result: { events: { '5m': number } } } }
  }
  const setCookie = response.headers.get('set-cookie') ?? ''
  return { ...body, cookie: setCookie.split(';')[0] ?? '' }
}

let shop: string
let blog: string
let forum: string

beforeAll(async () => {
  const db = await getDb()
  await ensureDefaultSite({ db, origins: [] })
  const shopSite = await createSite({ db, name: 'Shop', allowedOrigins: [] })
  const forumSite = await createSite({ db, name: 'Forum', allowedOrigins: [] })
  shop = shopSite.publicKey
  blog = (await createSite({ db, name: 'Blog', allowedOrigins: [] })).publicKey
  forum = forumSite.publicKey
  // The forum is grouped with the shop by its operator.
  await setSiteWorkspace({ db, siteId: forumSite.id, shareWith: shopSite.id, operator: 'admin' })
})

it("tells site B nothing of a device's visits to site A", async () => {
  const first = await identify(shop, 900)
  for (let visit = 0; visit < 3; visit++) await identify(shop, 900, first.cookie)
  // The same browser (its cookie) and the same device, on another site.
  const elsewhere = await identify(blog, 900, first.cookie)
  expect(elsewhere.visitorFound).toBe(false)
  expect(elsewhere.visitorId).not.toBe(first.visitorId)
  expect(elsewhere.signals.velocity.result.events['5m']).toBe(1)
  // Back on site A, the browser is still A's visitor, with A's own history.
  const back = await identify(shop, 900, elsewhere.cookie)
  expect(back.visitorId).toBe(first.visitorId)
  expect(back.signals.velocity.result.events['5m']).toBe(5)
})

it('shares identity between sites an operator grouped', async () => {
  const first = await identify(shop, 901)
  const grouped = await identify(forum, 901)
  expect(grouped.visitorFound).toBe(true)
  expect(grouped.visitorId).toBe(first.visitorId)
})
