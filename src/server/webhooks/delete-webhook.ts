import 'server-only'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { webhooks } from '../db/schema'

/** Deletes a webhook with its delivery log (by cascade). Idempotent. */
export async function deleteWebhook({ db, webhookId }: { db: Database; webhookId: string }) {
  await db.delete(webhooks).where(eq(webhooks.id, webhookId))
}
