import type { StoredSignals } from '@/contracts/signals'
import { IP_VELOCITY_LIMITS } from './ip-velocity'
import { VELOCITY_LIMITS } from './velocity'

/**
 * The suspect score's weights: one table, listed in docs/signals.md. Each visitor's score is the sum of
 * the rows whose condition holds, so every score can be explained line by line.
 */
export const SUSPECT_WEIGHTS = [
  {
    signal: 'bot',
    points: 10,
    when: 'a bad bot (automation) is detected',
    applies: (s: StoredSignals) => s.bot?.result === 'bad',
  },
  {
    signal: 'tampering',
    points: 7,
    when: 'the browser was tampered with',
    applies: (s: StoredSignals) => s.tampering?.result === true,
  },
  {
    signal: 'velocity',
    points: 5,
    when: `more than ${VELOCITY_LIMITS.events5m} identifications in 5 minutes`,
    applies: (s: StoredSignals) => (s.velocity?.result.events['5m'] ?? 0) > VELOCITY_LIMITS.events5m,
  },
  {
    signal: 'velocity',
    points: 5,
    when: `more than ${VELOCITY_LIMITS.ips1h} IP addresses in an hour`,
    applies: (s: StoredSignals) => (s.velocity?.result.distinctIps['1h'] ?? 0) > VELOCITY_LIMITS.ips1h,
  },
  {
    signal: 'velocity',
    points: 5,
    when: `more than ${VELOCITY_LIMITS.linkedIds24h} linked IDs in 24 hours`,
    applies: (s: StoredSignals) =>
      (s.velocity?.result.distinctLinkedIds['24h'] ?? 0) > VELOCITY_LIMITS.linkedIds24h,
  },
  {
    signal: 'ipVelocity',
    points: 3,
    when: `more than ${IP_VELOCITY_LIMITS.accountsPerAddress24h} linked IDs from one address in 24 hours`,
    applies: (s: StoredSignals) =>
      (s.ipVelocity?.result?.address.accounts['24h'] ?? 0) > IP_VELOCITY_LIMITS.accountsPerAddress24h,
  },
  {
    signal: 'ipVelocity',
    points: 2,
    when: `more than ${IP_VELOCITY_LIMITS.visitorsPerAddress1h} visitors from one address in an hour`,
    applies: (s: StoredSignals) =>
      (s.ipVelocity?.result?.address.visitors['1h'] ?? 0) > IP_VELOCITY_LIMITS.visitorsPerAddress1h,
  },
  {
    signal: 'ipVelocity',
    points: 1,
    when: `more than ${IP_VELOCITY_LIMITS.visitorsPerNetwork1h} visitors from one /24 (IPv6: /56) in an hour`,
    applies: (s: StoredSignals) =>
      (s.ipVelocity?.result?.network.visitors['1h'] ?? 0) > IP_VELOCITY_LIMITS.visitorsPerNetwork1h,
  },
  {
    signal: 'ipBlocklist',
    points: 10,
    when: "the address is in the site's blocklist",
    applies: (s: StoredSignals) => s.ipBlocklist?.result === true,
  },
  {
    signal: 'tor',
    points: 5,
    when: 'the address is a Tor exit relay',
    applies: (s: StoredSignals) => s.tor?.result === true,
  },
  {
    signal: 'datacenter',
    points: 3,
    when: 'the address belongs to a hosting network (a cloud or data centre)',
    applies: (s: StoredSignals) => s.datacenter?.result === true,
  },
  {
    signal: 'vpn',
    points: 2,
    when: 'a VPN is detected with medium or high confidence',
    applies: (s: StoredSignals) => s.vpn?.result === true && s.vpn.confidence !== 'low',
  },
  {
    signal: 'proxy',
    points: 2,
    when: 'a proxy that Tessera does not trust forwarded the request',
    applies: (s: StoredSignals) => s.proxy?.result === true,
  },
  {
    signal: 'virtualMachine',
    points: 3,
    when: 'a virtual machine is detected',
    applies: (s: StoredSignals) => s.virtualMachine?.result === true,
  },
  {
    signal: 'privateMode',
    points: 2,
    when: 'a private (incognito) window is detected',
    applies: (s: StoredSignals) => s.privateMode?.result === true,
  },
  {
    signal: 'privacyBrowser',
    points: 0,
    when: 'a privacy-hardened browser (never suspicious by itself)',
    applies: (s: StoredSignals) => s.privacyBrowser?.result === true,
  },
] as const

/** The score and the rows that made it. */
/** Works on a stored event's signals too: a signal the event predates adds nothing. */
export function explainSuspectScore(signals: StoredSignals) {
  const contributions = SUSPECT_WEIGHTS.filter((row) => row.applies(signals)).map((row) => ({
    signal: row.signal,
    points: row.points,
    because: row.when,
  }))
  return { score: contributions.reduce((sum, row) => sum + row.points, 0), contributions }
}
