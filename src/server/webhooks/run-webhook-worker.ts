import 'server-only'
import type { Database } from '../db/client'
import { log } from '../log'
import { deliverDueWebhooks } from './deliver-due-webhooks'

/** Polls the outbox every second in each app server; the leases keep servers from colliding. */
export function runWebhookWorker(db: Database, intervalMs = 1000): () => void {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const tick = async () => {
    try {
      // Drain while there is work, then wait.
      while (!stopped && (await deliverDueWebhooks({ db })) > 0) {}
    } catch (error) {
      log.error({ err: error }, 'webhook delivery failed')
    }
    if (!stopped) timer = setTimeout(tick, intervalMs)
  }
  timer = setTimeout(tick, intervalMs)
  timer.unref()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
