import 'server-only'
import type { Database } from '../db/client'
import { getIdentitySecret } from './identity-secret'
import { verifyVisitorToken } from './persistent-token'
import { presentedToken } from './visitor-cookie'

/**
 * The browser this request proves to be, by its signed token: its visitor and its own browser
 * ID. Never a visitor ID it merely claims, and never a browser found by its fingerprint.
 */
export async function currentBrowser(
  db: Database,
  request: Request,
): Promise<{ visitorId: string; browserId: string } | undefined> {
  const token = verifyVisitorToken(presentedToken(request), await getIdentitySecret(db))
  return token?.browserId ? { visitorId: token.visitorId, browserId: token.browserId } : undefined
}
