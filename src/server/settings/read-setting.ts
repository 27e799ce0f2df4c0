import 'server-only'
import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { settings } from '../db/schema'

/** The stored JSON value of a setting, or undefined when it was never written. */
export async function readSetting({ db, key }: { db: Database; key: string }): Promise<unknown> {
  const rows = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key))
  return rows[0]?.value
}
