import 'server-only'
import { processWide } from './process-wide'

/**
 * Start-up's end (start-tessera.ts): the database migrated, the default site and first operator in
 * place. Next.js runs start-up without waiting for it, so scripts/serve.mjs waits here before it
 * listens.
 */
const readiness = () =>
  processWide('readiness', () => {
    let markReady = () => {}
    const ready = new Promise<void>((resolve) => {
      markReady = resolve
    })
    return { ready, markReady }
  })

export function whenTesseraReady(): Promise<void> {
  return readiness().ready
}

export function markTesseraReady() {
  readiness().markReady()
}
