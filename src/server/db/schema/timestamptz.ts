import { customType } from 'drizzle-orm/pg-core'

/**
 * The one reading of a stored moment, as ISO 8601 in UTC. Both drivers hand timestamps over as
 * PostgreSQL's text (`2026-11-24 15:00:02.947+00`; Drizzle turns their own parsers off); a
 * timestamp without time zone is read as UTC. Microseconds are cut to milliseconds, as in a Date.
 */
export function toIsoTimestamp(text: string, withTimeZone = true): string {
  const time = Date.parse(withTimeZone ? text : `${text.replace(' ', 'T')}Z`)
  // `infinity` or a year JavaScript cannot hold: say so rather than answer a wrong moment.
  if (Number.isNaN(time)) throw new Error(`The database answered a moment that is not a date: ${text}`)
  return new Date(time).toISOString()
}

/**
 * `timestamp with time zone`, read and written as an ISO 8601 string, so a moment has one form
 * whether the typed builder or a raw query read it (see queryRows in ../client.ts). The SQL type
 * is Drizzle's own `timestamp(…, { withTimezone: true })`: no migration tells them apart.
 */
export const timestamptz = customType<{ data: string; driverData: string }>({
  dataType: () => 'timestamp with time zone',
  fromDriver: (text) => toIsoTimestamp(text),
})
