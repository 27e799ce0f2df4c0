import 'server-only'
import { randomBytes } from 'node:crypto'
import type { CreatedWebhook, WebhookEvent, WebhookFormat } from '@/contracts/console'
import type { Database } from '../db/client'
import { webhooks } from '../db/schema'
import { getEnv } from '../env'
import { HttpError } from '../http/errors'
import { webhookUrlProblem } from './webhook-target'

/**
 * A webhook for a site; its signing secret is generated here and shown to the operator. URLs that
 * point at private or local networks, or carry credentials, are refused (400).
 */
export async function createWebhook({
  db,
  siteId,
  url,
  format = 'tessera',
  events = ['identification'],
  allowPrivate = getEnv().TESSERA_WEBHOOK_ALLOW_PRIVATE,
}: {
  db: Database
  siteId: string
  url: string
  /** Tessera's own body and signature, or Fingerprint v4's event and `fpjs-event-signature`. */
  format?: WebhookFormat
  /** What it is sent (sign-up decisions in Tessera's format only: the contract refuses the rest). */
  events?: WebhookEvent[]
  allowPrivate?: boolean
}): Promise<CreatedWebhook> {
  const problem = webhookUrlProblem(url, { allowPrivate })
  if (problem) throw new HttpError('invalid_request', problem, { fields: { url: problem } })
  const webhook = {
    id: `wh_${randomBytes(9).toString('base64url')}`,
    siteId,
    url,
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    format,
    events,
  } satisfies CreatedWebhook
  await db.insert(webhooks).values(webhook)
  return webhook
}
