import 'server-only'
import { getEnv } from '../env'
import { type TrustedProxies, trustsProxies } from './trusted-proxies'

/**
 * Whether the browser reached Tessera over HTTPS: directly, or through a TLS-terminating proxy
 * that says so in X-Forwarded-Proto. The one rule behind Secure cookies and HSTS. The header
 * counts only when a proxy is trusted (TESSERA_TRUSTED_PROXIES); the front (client-address.ts)
 * also drops it from any connection that is not a trusted proxy's.
 */
export function isHttps(
  request: { headers: Headers; url?: string },
  trusted: TrustedProxies = getEnv().TESSERA_TRUSTED_PROXIES,
): boolean {
  if (trustsProxies(trusted)) {
    const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
    if (forwarded) return forwarded === 'https'
  }
  return request.url ? request.url.startsWith('https:') : false
}
