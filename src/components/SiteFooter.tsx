/** The docs/ pages the footer links, by their name under /api/docs (a test checks each exists). */
export const documentationLinks = [
  { page: 'embedding', label: 'Embedding' },
  { page: 'server-api', label: 'Server API' },
  { page: 'signals', label: 'Smart signals' },
  { page: 'identification', label: 'Identification' },
  { page: 'sign-up-protection', label: 'Sign-up protection' },
  { page: 'operations', label: 'Running Tessera' },
  { page: 'privacy', label: 'What is collected' },
  { page: 'benchmarks', label: 'Benchmarks' },
  { page: 'migrating-from-fingerprint', label: 'Migrating from Fingerprint' },
] as const

export function SiteFooter() {
  return (
    <footer className="container muted" style={{ padding: '2.5rem 0 3rem', fontSize: '0.875rem' }}>
      Tessera — open-source device intelligence you host yourself. Fingerprinting here serves fraud prevention
      only; you can <a href="/device-fingerprint">see and delete</a> everything stored about your device.{' '}
      <a href="https://db-ip.com/">IP Geolocation by DB-IP</a>; AS numbers by RouteViews and DB-IP.
      <nav aria-label="Documentation" style={{ marginTop: '0.5rem' }}>
        <a href="/api/docs">Documentation</a>:{' '}
        {documentationLinks.map(({ page, label }, index) => (
          <span key={page}>
            {index > 0 ? ' · ' : null}
            <a href={`/api/docs?page=${page}`}>{label}</a>
          </span>
        ))}
      </nav>
    </footer>
  )
}
