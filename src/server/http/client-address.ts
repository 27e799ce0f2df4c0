import 'server-only'
import { getEnv } from '../env'
import { clientInChain } from './trusted-proxies'

/**
 * The caller's IP address. scripts/serve.mjs rewrites X-Forwarded-For to the entries the trusted
 * proxies (TESSERA_TRUSTED_PROXIES) added, followed by the socket address; the client is the
 * entry before the trusted proxies (trusted-proxies.ts).
 */
export function clientAddress(headers: Headers): string | null {
  return clientInChain(headers.get('x-forwarded-for'), getEnv().TESSERA_TRUSTED_PROXIES)
}
