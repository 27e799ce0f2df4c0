// What the Server API's tests (/api/v1 and the /v4 face) start from: two sites, a secret key for
// each, a revoked key, and identifications stored through the real identify route.

import { expect } from 'vitest'
import { POST as identify } from '@/app/api/v1/identify/route'
import { createApiKey } from '@/server/api/create-api-key'
import { revokeApiKey } from '@/server/api/revoke-api-key'
import type { Database } from '@/server/db/client'
import { createSite } from '@/server/sites/create-site'
import { setSiteWorkspace } from '@/server/sites/set-site-workspace'
import { browserHeaders } from './browser-headers'
import { syntheticDevice } from './synthetic-devices'

export const apiBase = 'http://127.0.0.1:3000'

export interface TwoSites {
  siteA: { id: string; publicKey: string }
  siteB: { id: string; publicKey: string }
  keyA: string
  keyB: string
  /** A key of site A that was revoked. */
  revokedKey: string
}

export async function twoSitesWithKeys(db: Database): Promise<TwoSites> {
  const siteA = await createSite({ db, name: 'Shop A', allowedOrigins: [] })
  const siteB = await createSite({ db, name: 'Shop B', allowedOrigins: [] })
  // One operator's two shops that share visitors (sites are isolated unless grouped so): the same
  // visitor on both is what these tests keep apart by key.
  await setSiteWorkspace({ db, siteId: siteB.id, shareWith: siteA.id, operator: 'test' })
  const keyA = (await createApiKey({ db, siteId: siteA.id, name: 'back end' })).key
  const keyB = (await createApiKey({ db, siteId: siteB.id, name: 'back end' })).key
  const revoked = await createApiKey({ db, siteId: siteA.id, name: 'old' })
  await revokeApiKey({ db, id: revoked.id })
  return { siteA, siteB, keyA, keyB, revokedKey: revoked.key }
}

/** Identifies synthetic device `seed` on a site, from `ip`, through the identify route. */
export async function identifyOn(
  siteKey: string,
  seed: number,
  extra: Record<string, unknown> = {},
  ip = `192.0.2.${seed % 250}`,
) {
  const components = syntheticDevice(seed)
  const response = await identify(
    new Request(`${apiBase}/api/v1/identify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...browserHeaders(components) },
      body: JSON.stringify({ components, siteKey, ...extra }),
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as { requestId: string; visitorId: string }
}

/** A route handler's second argument: its path parameters. */
export const params = <T>(value: T) => ({ params: Promise.resolve(value) })
