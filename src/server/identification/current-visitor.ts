import 'server-only'
import type { Database } from '../db/client'
import { getIdentitySecret } from './identity-secret'
import { verifyVisitorToken } from './persistent-token'
import { presentedToken } from './visitor-cookie'

/** The visitor this browser proves to be, by its signed token; never a visitor ID it merely claims. */
export async function currentVisitorId(db: Database, request: Request): Promise<string | undefined> {
  return verifyVisitorToken(presentedToken(request), await getIdentitySecret(db))
}
