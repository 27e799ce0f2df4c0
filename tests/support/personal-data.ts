import { sql } from 'drizzle-orm'
import { type Database, selectRows } from '@/server/db/client'
import { identifyVisitor } from '@/server/identification/identify-visitor'
import { consumeRateLimit } from '@/server/rate-limit/rate-limiter'
import { decideSignup } from '@/server/signup/decide-signup'
import { clearSiteCache } from '@/server/sites/find-site'
import { createWebhook } from '@/server/webhooks/create-webhook'
import { deliverDueWebhooks } from '@/server/webhooks/deliver-due-webhooks'
import { defaultSite } from './console-factories'
import { syntheticDevice } from './synthetic-devices'

/**
 * One device's personal data in every place Tessera puts it: identification events on a site
 * with a webhook (pending deliveries of the events and of the sign-up, each attempted once and
 * logged), an account and a sign-up decision (with its facts), rate-limit counters.
 * Returns the values a scan must not find after a forget or a purge.
 */
export async function seedPersonalData(db: Database, seed: number) {
  const ip = `203.0.113.${seed % 250}`
  const linkedId = `linked-person-${seed}`
  const url = `https://shop.example/signup?person=${seed}`
  const email = `person-${seed}@example.com`
  // The registration form is the default site's: its sign-ups are of that site's identifications.
  clearSiteCache()
  const site = await defaultSite(db)
  await createWebhook({
    db,
    siteId: site.id,
    url: 'https://hooks.example/tessera',
    events: ['identification', 'signup'],
  })
  const requestIds: string[] = []
  let visitorId = ''
  for (let visit = 0; visit < 2; visit++) {
    const event = await identifyVisitor({
      db,
      input: { components: syntheticDevice(seed), siteKey: site.publicKey, linkedId, url, tag: { seed } },
      context: { ip, userAgent: 'test' },
    })
    requestIds.push(event.requestId)
    visitorId = event.visitorId
  }
  // What the registration route does before deciding: an IP counter.
  await consumeRateLimit({ db, limit: { name: 'signup-ip', points: 30, durationSeconds: 600 }, key: ip })
  const fields = { name: 'Ada Lovelace', email, password: 'cobalt-meridian-lantern-77', terms: true }
  const signup = await decideSignup({
    db,
    input: { fields, requestId: requestIds[1] ?? '' },
    context: { ip },
  })
  if (signup.outcome !== 'allow') throw new Error(`the seeded sign-up was not allowed: ${signup.outcome}`)
  // One attempt of each delivery, logged with its request (the receiver's name does not resolve).
  await deliverDueWebhooks({
    db,
    resolve: async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example'), { code: 'ENOTFOUND' })
    },
  })
  return { site, visitorId, requestIds, ip, linkedId, url, email }
}

/** `table: needle` for every row of every table whose text contains one of the needles. */
export async function tablesContaining(db: Database, needles: string[]): Promise<string[]> {
  const tables = await selectRows(
    db,
    { name: sql<string>`table_name` },
    (select) => sql`select ${select} from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )
  const hits: string[] = []
  for (const { name } of tables) {
    for (const needle of needles) {
      const [row] = await selectRows(
        db,
        { n: sql<number>`count(*)::int` },
        (select) =>
          sql`select ${select} from ${sql.identifier(name)} as r where strpos(r::text, ${needle}) > 0`,
      )
      if (row && row.n > 0) hits.push(`${name}: ${needle}`)
    }
  }
  return hits
}
