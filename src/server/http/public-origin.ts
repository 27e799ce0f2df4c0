import 'server-only'
import { getEnv } from '../env'
import { HOST_HEADER } from './host-name'
import { isHttps } from './is-https'

/**
 * The origin browsers reach Tessera on: TESSERA_PUBLIC_URL when configured, else the Host header
 * the browser itself sent. X-Forwarded-Host is never read: any client can send it, and a cache in
 * front that does not key on it would serve the forged snippet to everyone.
 */
export function ownOrigin(
  request: { headers: Headers; url?: string },
  configured = getEnv().TESSERA_PUBLIC_URL,
): string {
  if (configured) return configured
  return `${isHttps(request) ? 'https' : 'http'}://${requestHost(request.headers)}`
}

/**
 * The Host header when it is a plain host[:port] (nothing that could carry markup or a path into a
 * snippet), else localhost on this server's port.
 */
export function requestHost(incoming: Headers): string {
  const host = incoming.get('host')?.trim().toLowerCase() ?? ''
  return HOST_HEADER.test(host) ? host : `localhost:${getEnv().PORT}`
}
