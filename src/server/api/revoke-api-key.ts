import 'server-only'
import { and, eq, isNull } from 'drizzle-orm'
import type { Database } from '../db/client'
import { apiKeys } from '../db/schema'

/** Revokes a key; it stops working on the next request. Idempotent. */
export async function revokeApiKey({ db, id }: { db: Database; id: string }) {
  await db
    .update(apiKeys)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
}
