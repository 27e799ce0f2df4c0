import 'server-only'
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { apiKeys, sites } from '../db/schema'
import { HttpError } from '../http/errors'
import { consumeRateLimit } from '../rate-limit/rate-limiter'
import { parseApiKey, secretMatches } from './api-key-secret'

export interface ApiCaller {
  keyId: string
  siteId: string
  /** The site's public key, which identification events carry. */
  sitePublicKey: string
}

/** Server API requests per key and minute. */
const API_LIMIT = { name: 'api-key', points: 600, durationSeconds: 60 }

/** Checks `Authorization: Bearer <secret key>`; 401 unless the key exists, matches and is not revoked. */
export async function authenticateApiKey(db: Database, request: Request): Promise<ApiCaller> {
  const header = request.headers.get('authorization') ?? ''
  const parsed = parseApiKey(header.replace(/^Bearer\s+/i, '').trim())
  if (!parsed) throw new HttpError('unauthorized')
  const [row] = await db
    .select({
      siteId: apiKeys.siteId,
      secretHash: apiKeys.secretHash,
      sitePublicKey: sites.publicKey,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .innerJoin(sites, eq(sites.id, apiKeys.siteId))
    .where(eq(apiKeys.id, parsed.id))
  if (!row || row.revokedAt !== null || !secretMatches(parsed.secret, row.secretHash)) {
    throw new HttpError('unauthorized', 'This API key is unknown or was revoked.')
  }
  await consumeRateLimit({ db, limit: API_LIMIT, key: parsed.id })
  // "Last used" in the console: written at most once a minute per key, not on every request.
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.id, parsed.id),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`)),
      ),
    )
  return { keyId: parsed.id, siteId: row.siteId, sitePublicKey: row.sitePublicKey }
}
