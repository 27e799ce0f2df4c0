/** The first operator's password on the e2e server. */
export const ADMIN_PASSWORD = 'e2e correct horse battery'
/**
 * A parent page on this port (http://localhost:<port>) is allowed to embed Tessera; the one below
 * it is not. Derived from the e2e port, so parallel runs on other ports do not collide.
 */
export const EMBEDDING_PORT = Number(process.env.TESSERA_E2E_PORT ?? 3100) + 9
/**
 * Specs that start a second Tessera of their own take a port from here, one per spec, derived from the
 * e2e port like the embedding port.
 */
export const EXTRA_SERVER_PORTS = {
  errorScreen: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 90,
  console: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 91,
  fingerprint: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 92,
  sdks: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 93,
  passwordThrottle: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 89,
  emailCode: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 88,
  singleSignOn: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 87,
  /** The OpenID Connect provider of the single sign-on spec. */
  identityProvider: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 86,
  allowedHosts: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 96,
  hungUp: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 97,
  /** A PostgreSQL server of the hung-up clients' spec (its test holds a lock on it). */
  hungUpPostgres: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 98,
  admission: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 99,
  gracefulStop: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 85,
  /** A PostgreSQL server of the graceful stop's spec (its test holds a lock on it). */
  gracefulStopPostgres: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 84,
  /** The graceful stop's server on the embedded database. */
  gracefulStopEmbedded: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 83,
  /** The session-ended spec's own server: its sign-ins stay off the shared server's per-address budget. */
  sessionEnded: Number(process.env.TESSERA_E2E_PORT ?? 3100) + 82,
} as const

/** The integrator's site that proxies Tessera (sdks.spec.ts), and its webhook receiver. */
export const FIRST_PARTY_SITE_PORT = Number(process.env.TESSERA_E2E_PORT ?? 3100) + 94
export const WEBHOOK_RECEIVER_PORT = Number(process.env.TESSERA_E2E_PORT ?? 3100) + 95
