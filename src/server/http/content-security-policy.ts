import 'server-only'

/** One year; not includeSubDomains: other services on sibling hosts are not Tessera's to pin. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000'

/**
 * The Content-Security-Policy of every screen. Scripts run only from Tessera's own origin or with
 * this response's nonce (Next.js puts it on its inline scripts), so injected markup cannot run code.
 */
export function contentSecurityPolicy({
  nonce,
  frameAncestors,
  development = false,
}: {
  nonce: string
  /** Who may frame the page: "'none'" for every screen but /frame. */
  frameAncestors: string
  /** `next dev` evaluates code for its error overlay and fast refresh. */
  development?: boolean
}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-eval'" : ''}`,
    // 'unsafe-inline' for styles, knowingly: React renders `style` attributes (the charts, the
    // layout) and the ALTCHA widget injects a <style>; a nonce cannot cover attributes. Styles
    // cannot run script.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // The ALTCHA widget solves its puzzle in a worker started from a blob: URL.
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ')
}
