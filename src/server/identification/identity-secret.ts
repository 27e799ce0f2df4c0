import 'server-only'
import type { Database } from '../db/client'
import { getServerSecret } from '../settings/server-secret'

/** The HMAC key that signs visitor tokens. */
export function getIdentitySecret(db: Database): Promise<string> {
  return getServerSecret(db, 'identity_secret')
}
