import 'server-only'
import { getEnv } from '../env'
import { hostName } from './host-name'

// DNS rebinding: a name the attacker controls, made to resolve to Tessera's address, turns the
// attacker's page into a same-origin page of Tessera's (its requests carry Host: <that name> and
// a matching Origin). Once Tessera knows its own names, a request naming any other is refused.

/**
 * Tessera's own host names: TESSERA_PUBLIC_URL's and TESSERA_ALLOWED_HOSTS. Empty when neither is
 * set (local development): then any Host is answered, as a server on a laptop is.
 */
export function configuredHosts(
  env: { TESSERA_PUBLIC_URL?: string; TESSERA_ALLOWED_HOSTS: readonly string[] } = getEnv(),
): readonly string[] {
  const publicHost = env.TESSERA_PUBLIC_URL ? new URL(env.TESSERA_PUBLIC_URL).hostname : undefined
  return [...(publicHost ? [publicHost] : []), ...env.TESSERA_ALLOWED_HOSTS]
}

/** Whether a Host value names Tessera: one of its configured names, or anything when none is configured. */
export function isOwnHost(value: string | null | undefined, hosts = configuredHosts()): boolean {
  if (hosts.length === 0) return true
  const name = value ? hostName(value) : undefined
  return name !== undefined && hosts.includes(name)
}

/**
 * Whether a request names only Tessera: its Host, and the X-Forwarded-Host a trusted proxy passed
 * on (the front drops anyone else's), whose first entry is the name the browser asked for.
 */
export function namesOwnHost(
  headers: { host?: string | null; forwardedHost?: string | null },
  hosts = configuredHosts(),
): boolean {
  if (hosts.length === 0) return true
  const forwarded = headers.forwardedHost?.split(',')[0]
  return isOwnHost(headers.host, hosts) && (!forwarded || isOwnHost(forwarded, hosts))
}
