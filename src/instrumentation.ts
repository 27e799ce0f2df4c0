import type { Instrumentation } from 'next'

/** Runs once per server start (src/server/start-tessera.ts); the guard keeps it out of the edge bundle. */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    const { startTessera } = await import('./server/start-tessera')
    await startTessera()
  }
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
      // Without the query (it can hold linked IDs or IPs), and bounded.
      path: (request.path.split('?')[0] ?? '').slice(0, 500),
      route: context.routePath,
      routeType: context.routeType,
    },
    'request failed',
  )
}
