import 'server-only'
import { getEnv } from '../env'

/**
 * The caller's IP address. scripts/serve.mjs rewrites X-Forwarded-For to the entries of the
 * trusted proxies (TESSERA_TRUSTED_PROXIES) followed by the socket address, so with N trusted
 * proxies the client is the entry N places from the end.
 */
export function clientAddress(headers: Headers): string | null {
  const chain = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const address = chain[Math.max(0, chain.length - 1 - getEnv().TESSERA_TRUSTED_PROXIES)]
  return address ? address.replace(/^::ffff:/, '') : null
}
