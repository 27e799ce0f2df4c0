export function SiteFooter() {
  return (
    <footer className="container muted" style={{ padding: '2.5rem 0 3rem', fontSize: '0.875rem' }}>
      Tessera — open-source device intelligence you host yourself. Fingerprinting here serves fraud prevention
      only; you can <a href="/device-fingerprint">see and delete</a> everything stored about your device.{' '}
      <a href="https://db-ip.com/">IP Geolocation by DB-IP</a>; AS numbers by RouteViews and DB-IP.
    </footer>
  )
}
