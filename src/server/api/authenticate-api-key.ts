import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, queryRows } from '../db/client'
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
  const [row] = await queryRows<{
    site_id: string
    secret_hash: string
    public_key: string
    revoked: boolean
  }>(
    db,
    sql`select k.site_id, k.secret_hash, s.public_key, k.revoked_at is not null as revoked
        from api_keys k join sites s on s.id = k.site_id where k.id = ${parsed.id}`,
  )
  if (!row || row.revoked || !secretMatches(parsed.secret, row.secret_hash)) {
    throw new HttpError('unauthorized', 'This API key is unknown or was revoked.')
  }
  await consumeRateLimit({ db, limit: API_LIMIT, key: parsed.id })
  return { keyId: parsed.id, siteId: row.site_id, sitePublicKey: row.public_key }
}
