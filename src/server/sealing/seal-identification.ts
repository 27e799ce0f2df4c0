import 'server-only'
import type { Database } from '../db/client'
import { readFingerprintEvent } from '../fingerprint/read-fingerprint-events'
import { log } from '../log'
import type { Site } from '../sites/find-site'
import { findSealingKey } from './find-sealing-key'
import { sealEvent } from './seal-event'

/**
 * The identify answer's `sealed_result` for a site with a sealing key: the event as GET
 * /v4/events/{id} answers it, sealed, but for the analyst's label (`suspect`): the sealed result
 * travels through the browser, and its length, compressed, would tell the device whether it was
 * labelled (SECURITY.md); the back end reads the label from the Server API. Undefined for a site
 * without a key. The event is
 * already stored, so a failure here is logged and the answer goes without it rather than failing
 * (the agent would retry, and store the identification twice); the back end then finds no sealed
 * result and refuses, as it must.
 */
export async function sealIdentification({
  db,
  site,
  requestId,
}: {
  db: Database
  site: Pick<Site, 'id' | 'publicKey'>
  requestId: string
}): Promise<string | undefined> {
  try {
    const key = await findSealingKey({ db, siteId: site.id })
    if (!key) return undefined
    const { suspect: _label, ...event } = await readFingerprintEvent({
      db,
      caller: { sitePublicKey: site.publicKey },
      eventId: requestId,
    })
    return sealEvent(event, key.key)
  } catch (error) {
    log.error({ err: error }, 'sealing an identification failed')
    return undefined
  }
}
