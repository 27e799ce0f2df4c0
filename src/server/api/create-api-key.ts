import 'server-only'
import type { CreatedApiKey } from '@/contracts/console'
import type { Database } from '../db/client'
import { apiKeys } from '../db/schema'
import { newApiKey } from './api-key-secret'

/** Creates a secret key for a site. The returned `key` is shown once and never stored. */
export async function createApiKey({
  db,
  siteId,
  name,
}: {
  db: Database
  siteId: string
  name: string
}): Promise<CreatedApiKey> {
  const { id, key, secretHash } = newApiKey()
  await db.insert(apiKeys).values({ id, siteId, name, secretHash })
  return { id, key }
}
