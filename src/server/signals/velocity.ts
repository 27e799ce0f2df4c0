import type { VelocitySignal } from '@/contracts/signals'
/** Recent activity of one visitor, as read from its stored events (before the current one). */
export interface VelocityRow {
  events5m: number
  events1h: number
  events24h: number
  ips5m: string[]
  ips1h: string[]
  ips24h: string[]
  linked24h: string[]
}

/** Past activity plus the current event (its IP and linked ID counted once). */
export function computeVelocity(
  past: VelocityRow | undefined,
  current: { ip: string | null; linkedId?: string },
): VelocitySignal {
  const result = {
    events: {
      '5m': (past?.events5m ?? 0) + 1,
      '1h': (past?.events1h ?? 0) + 1,
      '24h': (past?.events24h ?? 0) + 1,
    },
    distinctIps: {
      '5m': withCurrent(past?.ips5m, current.ip),
      '1h': withCurrent(past?.ips1h, current.ip),
      '24h': withCurrent(past?.ips24h, current.ip),
    },
    distinctLinkedIds: { '24h': withCurrent(past?.linked24h, current.linkedId) },
  }
  const reasons: string[] = []
  if (result.events['5m'] > VELOCITY_LIMITS.events5m)
    reasons.push(`${result.events['5m']} identifications in 5 minutes.`)
  if (result.distinctIps['1h'] > VELOCITY_LIMITS.ips1h)
    reasons.push(`${result.distinctIps['1h']} different IP addresses in an hour.`)
  if (result.distinctLinkedIds['24h'] > VELOCITY_LIMITS.linkedIds24h) {
    reasons.push(`${result.distinctLinkedIds['24h']} different accounts (linked IDs) in 24 hours.`)
  }
  return { result, reasons }
}

/** How many distinct values were seen, the current one counted in once. */
export function withCurrent(values: readonly string[] | undefined, value: string | null | undefined): number {
  return new Set([...(values ?? []), ...(value ? [value] : [])]).size
}

/** Above these, velocity counts towards the suspect score. */
export const VELOCITY_LIMITS = { events5m: 20, ips1h: 4, linkedIds24h: 3 }
