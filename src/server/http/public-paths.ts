import 'server-only'

/**
 * Set by the front on a request that came in by a public path: it comes from an integrator's page
 * through the integrator's own server, never from one of Tessera's pages. A client's own is dropped.
 */
export const PUBLIC_PATH_HEADER = 'x-tessera-public-path'

/** Whether the front saw this request arrive by a public path (see PUBLIC_PATH_HEADER). */
export function cameByPublicPath(request: Request): boolean {
  return request.headers.get(PUBLIC_PATH_HEADER) === '1'
}

/** Tessera's own paths: a public path may neither be one nor lie under one. */
const RESERVED = ['/_next', '/api', '/frame', '/registration', '/device-fingerprint', '/agent.js']

/** Why a configured public path is refused, or undefined when it is fine. */
export function publicPathProblem(path: string): string | undefined {
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(path) || path.split('/').some((segment) => /^\.+$/.test(segment)))
    return 'must be a path like /metrics/t.js: letters, digits and . _ ~ - between slashes.'
  const clash = RESERVED.find((own) => path === own || path.startsWith(`${own}/`))
  if (clash) return `must not be ${clash} or lie under it: that is Tessera's own.`
  return undefined
}

/**
 * The canonical URL for a request to one of the public paths (TESSERA_AGENT_PATH,
 * TESSERA_API_PREFIX), or undefined. Only the loader and the agent's calls (identify, and the
 * nonce it asks for first) have aliases;
 * the front rewrites the URL before anything else runs, so the alias is answered by the same
 * handler, with the same origin checks, rate limits and headers, as the canonical path.
 */
export function canonicalUrl(
  url: string,
  /** TESSERA_AGENT_PATH and TESSERA_API_PREFIX (env.ts validates them with publicPathProblem). */
  { agentPath, apiPrefix }: { agentPath?: string; apiPrefix?: string },
): string | undefined {
  if (!agentPath && !apiPrefix) return undefined
  const query = url.indexOf('?')
  const path = query < 0 ? url : url.slice(0, query)
  const search = query < 0 ? '' : url.slice(query)
  if (agentPath && path === agentPath) return `/agent.js${search}`
  if (apiPrefix && path === `${apiPrefix}/identify`) return `/api/v1/identify${search}`
  if (apiPrefix && path === `${apiPrefix}/nonce`) return `/api/v1/nonce${search}`
  return undefined
}
