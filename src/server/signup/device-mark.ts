import 'server-only'
import { createHmac } from 'node:crypto'
import type { Database } from '../db/client'
import { getServerSecret } from '../settings/server-secret'

/** The window of the accounts-per-device rule; a device mark is kept no longer than this. */
export const ACCOUNT_LIMIT_WINDOW_HOURS = 24

/**
 * A keyed hash of a device's fingerprint profile (jsonb text, whose key order is canonical).
 * Forgetting a device gives it a new visitor ID but not a new fingerprint, so this is what lets
 * the accounts-per-device rule recognise it; without the server's key it reveals nothing.
 */
export async function deviceMark(db: Database, profileText: string): Promise<string> {
  const key = await getServerSecret(db, 'device_mark_secret')
  return createHmac('sha256', key).update(profileText).digest('base64url')
}
