import 'server-only'
import type { Database } from '../db/client'
import { settings } from '../db/schema'

/** Creates or replaces a setting. */
export async function writeSetting({ db, key, value }: { db: Database; key: string; value: unknown }) {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date().toISOString() } })
}
