import 'server-only'
import { randomBytes } from 'node:crypto'
import type { Database } from '../db/client'
import { webhooks } from '../db/schema'

/** A webhook for a site; its signing secret is generated here and shown to the operator. */
export async function createWebhook({ db, siteId, url }: { db: Database; siteId: string; url: string }) {
  const webhook = {
    id: `wh_${randomBytes(9).toString('base64url')}`,
    siteId,
    url,
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
  }
  await db.insert(webhooks).values(webhook)
  return webhook
}
