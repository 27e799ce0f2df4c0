import 'server-only'
import { and, eq, gt, isNotNull, sql } from 'drizzle-orm'
import { KEY_RESTORE_MINUTES } from '@/contracts/undo-windows'
import type { Database } from '../db/client'
import { apiKeys } from '../db/schema'

/**
 * Undoes a revocation made in the last KEY_RESTORE_MINUTES; false when the key is not revoked, was
 * revoked longer ago (a key revoked because it leaked must stay dead), or does not exist.
 */
export async function restoreApiKey({ db, id }: { db: Database; id: string }): Promise<boolean> {
  const restored = await db
    .update(apiKeys)
    .set({ revokedAt: null })
    .where(
      and(
        eq(apiKeys.id, id),
        isNotNull(apiKeys.revokedAt),
        gt(apiKeys.revokedAt, sql`now() - make_interval(mins => ${KEY_RESTORE_MINUTES})`),
      ),
    )
    .returning({ id: apiKeys.id })
  return restored.length > 0
}
