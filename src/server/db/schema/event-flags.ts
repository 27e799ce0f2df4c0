import { type SQL, sql } from 'drizzle-orm'
import type { StoredSignals } from '../../../contracts/signals'

// What searches, partial indexes, sign-up rules and rollups ask of an event's signals, as bits of
// one integer column (events.flags), since the signals themselves are packed (migration 0039). The
// layout is stored data: a bit is never moved or reused, only added. Migration 0039 computes the same
// bits from the JSON of rows stored before it.

/** The yes/no signals: each has a bit saying it is known and one saying it is true. */
export const FLAG_BITS = {
  tampering: 0,
  privateMode: 2,
  privacyBrowser: 4,
  virtualMachine: 6,
  datacenter: 8,
  vpn: 10,
  proxy: 12,
  tor: 14,
  ipBlocklist: 16,
} as const satisfies Partial<Record<keyof StoredSignals, number>>
export type FlagName = keyof typeof FLAG_BITS

/** Two-bit codes, 0 where the signal is missing (an event stored before it existed). */
const BOT_SHIFT = 18
const BOT_CODES = { notDetected: 1, good: 2, bad: 3 } as const
const VPN_CONFIDENCE_SHIFT = 20
const CONFIDENCE_CODES = { low: 1, medium: 2, high: 3 } as const
export type BotResult = keyof typeof BOT_CODES
export type VpnConfidence = keyof typeof CONFIDENCE_CODES

/** The flags of an event's signals. */
export function flagsOf(signals: StoredSignals): number {
  let flags = 0
  for (const [name, shift] of Object.entries(FLAG_BITS)) {
    const result = signals[name as FlagName]?.result
    // As the SQL of migration 0039 reads stored JSON: only a yes or a no is known.
    if (typeof result !== 'boolean') continue
    flags |= (result ? 3 : 1) << shift
  }
  if (signals.bot) flags |= BOT_CODES[signals.bot.result] << BOT_SHIFT
  if (signals.vpn) flags |= CONFIDENCE_CODES[signals.vpn.confidence] << VPN_CONFIDENCE_SHIFT
  return flags
}

/** Events whose `name` signal is `value` (an event without it matches neither), on `events` unaliased. */
export function flagIs(name: FlagName, value: boolean): SQL {
  const known = 1 << FLAG_BITS[name]
  const set = 2 << FLAG_BITS[name]
  // The literal form of a flag's partial index predicate (FLAGGED in events.ts), which a search must repeat.
  return value ? sql.raw(`(flags & ${set}) <> 0`) : sql.raw(`(flags & ${known | set}) = ${known}`)
}

/** Events whose bot result is one of `results`; an event without a bot signal counts as `notDetected`. */
export function botIs(results: readonly BotResult[]): SQL {
  if (results.length === 1 && results[0] === 'bad')
    return sql.raw(`(flags & ${3 << BOT_SHIFT}) = ${3 << BOT_SHIFT}`)
  const codes = results.flatMap((result) => (result === 'notDetected' ? [0, 1] : [BOT_CODES[result]]))
  return sql.raw(`((flags >> ${BOT_SHIFT}) & 3) in (${codes.join(', ')})`)
}

/** Events whose VPN signal has this confidence. */
export function vpnConfidenceIs(confidence: VpnConfidence): SQL {
  return sql.raw(`((flags >> ${VPN_CONFIDENCE_SHIFT}) & 3) = ${CONFIDENCE_CODES[confidence]}`)
}
