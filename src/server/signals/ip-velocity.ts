import { createHash } from 'node:crypto'
import type { IpVelocitySignal } from '@/contracts/signals'
import { networkOf } from '../identification/network-of'
import { withCurrent } from './velocity'

/**
 * What one address's (or one network's) latest events of the last day show, before the current
 * one: event counts, and the distinct visitors and accounts (linked IDs) seen from it. Read among
 * at most ACTIVITY_SAMPLE events, so a busy address costs what a quiet one does and its counts
 * are lower bounds.
 */
export interface AddressActivity {
  events5m: number
  events1h: number
  events24h: number
  visitors1h: string[]
  visitors24h: string[]
  /** Linked IDs, each by its accountDigest. */
  accounts1h: string[]
  accounts24h: string[]
}

/** Events read per address and per network: enough to tell a home from a farm, bounded for a NAT. */
export const ACTIVITY_SAMPLE = 500
/** Accounts are told apart by the first hex digits of their linked ID's MD5 (not a secret: a short key). */
export const ACCOUNT_DIGEST_LENGTH = 16

export function accountDigest(linkedId: string): string {
  return createHash('md5').update(linkedId).digest('hex').slice(0, ACCOUNT_DIGEST_LENGTH)
}

/**
 * Above these, ipVelocity counts towards the suspect score. Homes hold a few devices and an office
 * or a carrier NAT many, so the visitor limits are generous; many accounts from one address in a
 * day is what sign-up fraud through one connection looks like.
 */
export const IP_VELOCITY_LIMITS = {
  visitorsPerAddress1h: 10,
  accountsPerAddress24h: 5,
  visitorsPerNetwork1h: 30,
}

/**
 * The address's and its network's activity with the current event counted in: its visitor and its
 * linked ID once, whether or not they were already seen there.
 */
export function computeIpVelocity(
  ip: string | null,
  activity: { address?: AddressActivity; network?: AddressActivity },
  current: { visitorId: string; linkedId?: string },
): IpVelocitySignal {
  if (!ip) return { result: null, reasons: [] }
  const account = current.linkedId === undefined ? undefined : accountDigest(current.linkedId)
  const windows = (row: AddressActivity | undefined) => ({
    visitors: {
      '1h': withCurrent(row?.visitors1h, current.visitorId),
      '24h': withCurrent(row?.visitors24h, current.visitorId),
    },
    accounts: {
      '1h': withCurrent(row?.accounts1h, account),
      '24h': withCurrent(row?.accounts24h, account),
    },
  })
  const { address, network } = activity
  const result = {
    address: {
      events: {
        '5m': (address?.events5m ?? 0) + 1,
        '1h': (address?.events1h ?? 0) + 1,
        '24h': (address?.events24h ?? 0) + 1,
      },
      ...windows(address),
    },
    network: { prefix: networkOf(ip), ...windows(network) },
  }
  const reasons: string[] = []
  if (result.address.visitors['1h'] > IP_VELOCITY_LIMITS.visitorsPerAddress1h)
    reasons.push(`${result.address.visitors['1h']} different visitors from this address in an hour.`)
  if (result.address.accounts['24h'] > IP_VELOCITY_LIMITS.accountsPerAddress24h)
    reasons.push(
      `${result.address.accounts['24h']} different accounts (linked IDs) from this address in 24 hours.`,
    )
  if (result.network.visitors['1h'] > IP_VELOCITY_LIMITS.visitorsPerNetwork1h)
    reasons.push(
      `${result.network.visitors['1h']} different visitors from ${result.network.prefix} in an hour.`,
    )
  return { result, reasons }
}

/**
 * Counts the current event into the activity read before its batch, so the next request of the
 * same batch from that address sees it as it would have after a write.
 */
export function addToActivity(
  row: AddressActivity | undefined,
  current: { visitorId: string; linkedId?: string },
): AddressActivity {
  const add = (seen: string[], value: string | undefined) =>
    value && !seen.includes(value) ? [...seen, value] : seen
  const base = row ?? emptyActivity()
  const account = current.linkedId === undefined ? undefined : accountDigest(current.linkedId)
  return {
    events5m: base.events5m + 1,
    events1h: base.events1h + 1,
    events24h: base.events24h + 1,
    visitors1h: add(base.visitors1h, current.visitorId),
    visitors24h: add(base.visitors24h, current.visitorId),
    accounts1h: add(base.accounts1h, account),
    accounts24h: add(base.accounts24h, account),
  }
}

const emptyActivity = (): AddressActivity => ({
  events5m: 0,
  events1h: 0,
  events24h: 0,
  visitors1h: [],
  visitors24h: [],
  accounts1h: [],
  accounts24h: [],
})
