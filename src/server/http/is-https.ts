import 'server-only'

/**
 * Whether the browser reached Tessera over HTTPS: directly, or through a TLS-terminating proxy
 * that says so in X-Forwarded-Proto. The one rule behind Secure cookies and HSTS.
 */
export function isHttps(request: { headers: Headers; url?: string }): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
  if (forwarded) return forwarded === 'https'
  return request.url ? request.url.startsWith('https:') : false
}
