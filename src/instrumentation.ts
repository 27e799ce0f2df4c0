import type { Instrumentation } from 'next'

/** Runs once per server start: validates the configuration and opens (and migrates) the database. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return
  const { log } = await import('./server/log')
  const { getEnv } = await import('./server/env')
  const { getDatabase } = await import('./server/db/client')
  const { ensureDefaultSite } = await import('./server/sites/ensure-default-site')
  const started = performance.now()
  const { db, engine } = await getDatabase()
  const site = await ensureDefaultSite({ db, origins: getEnv().TESSERA_ALLOWED_ORIGINS })
  log.info(
    { engine, ms: Math.round(performance.now() - started), defaultSiteKey: site.publicKey },
    'database ready',
  )
}

/** One log line per request error, with the digest the error screen shows to the user. */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { log } = await import('./server/log')
  const digest = typeof error === 'object' && error !== null && 'digest' in error ? error.digest : undefined
  log.error(
    {
      digest,
      err: error,
      method: request.method,
      path: request.path,
      route: context.routePath,
      routeType: context.routeType,
    },
    'request failed',
  )
}
