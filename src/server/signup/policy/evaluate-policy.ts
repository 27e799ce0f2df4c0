import { describeListEntry, listEntryKind } from '@/contracts/list-entry'
import type { AgentProofVerdict } from '@/contracts/signals'
import type { RuleOutcome, SignupPolicy } from '@/contracts/signup-policy'

/** What the server knows about a sign-up attempt, all of it looked up by the server itself. */
export interface SignupFacts {
  bot: 'notDetected' | 'good' | 'bad'
  tampered: boolean
  /**
   * The agent's proof on the identification; `unchecked` for an event stored without the identify
   * route (in-process identifications, events from before proofs existed).
   */
  agentProof: AgentProofVerdict | 'unchecked'
  suspectScore: number
  /** The identification's network signals (signals/detect-network.ts); all false on events stored before them. */
  network: { blocked: boolean; datacenter: boolean; vpn: boolean; proxy: boolean; tor: boolean }
  /** Accounts created by this device in the rule's window, by any browser. */
  accountsFromVisitor24h: number
  /**
   * Of those, the accounts created by other browsers (a copy of this fingerprint, or the owner's
   * other profiles) first seen well after this browser: they can challenge it, never deny it.
   */
  accountsByNewerBrowsers24h: number
  /**
   * Accounts other devices created in the window for the inbox this address delivers to
   * (`grace+1@`, `g.race@gmail.com`): named in the account limit's reason, deciding nothing.
   */
  accountsForMailboxElsewhere24h: number
  /** Earlier sign-up attempts (this one not counted): the rule fires when this one makes more than the limit. */
  attemptsFromVisitor10m: number
  attemptsFromIp10m: number
  /** Distinct visitors from the identification's address in the hour up to it, its own included (ipVelocity; 0 on older events). */
  visitorsFromAddress1h: number
  /**
   * The first entry of the site's deny and allow lists (list-entry.ts) the sign-up matched, by its
   * visitor, address or email domain, when it was decided; absent on decisions from before lists.
   */
  listed?: { deny: string | null; allow: string | null }
  /** The analyst's label of the device when it was decided; absent on decisions from before labels. */
  label?: 'fraud' | 'good' | null
}

export interface Reason {
  rule: string
  /** `allow` only for the reason an allow list or a good label gave (no other reason then). */
  outcome: 'deny' | 'challenge' | 'allow'
  message: string
}

export interface PolicyDecision {
  outcome: 'allow' | 'challenge' | 'deny'
  reasons: Reason[]
}

const severity = { allow: 0, challenge: 1, deny: 2 } as const

/** Applies every rule in order; the strictest outcome wins and every triggered rule is a reason. */
export function evaluatePolicy(facts: SignupFacts, policy: SignupPolicy): PolicyDecision {
  const reasons: Reason[] = []
  const check = (rule: string, outcome: RuleOutcome, triggered: boolean, message: string) => {
    if (triggered && outcome !== 'off') reasons.push({ rule, outcome, message })
  }
  check('bot', policy.botRule, facts.bot === 'bad', 'An automated browser (bot) was detected.')
  checkAccountLimit(facts, policy, check)
  check(
    'agentProof',
    policy.agentProofRule,
    facts.agentProof !== 'valid' && facts.agentProof !== 'unchecked',
    `The identification carried no valid proof that Tessera's agent ran (nonce ${facts.agentProof}).`,
  )
  check('tampering', policy.tamperingRule, facts.tampered, 'The browser shows signs of tampering.')
  check(
    'visitorAttempts',
    policy.visitorAttemptsRule,
    facts.attemptsFromVisitor10m >= policy.maxAttemptsPerVisitor,
    `${facts.attemptsFromVisitor10m + 1} sign-up attempts from this device in 10 minutes, this one included: more than the ${policy.maxAttemptsPerVisitor} allowed.`,
  )
  check(
    'ipAttempts',
    policy.ipAttemptsRule,
    facts.attemptsFromIp10m >= policy.maxAttemptsPerIp,
    `${facts.attemptsFromIp10m + 1} sign-up attempts from this IP address (an IPv6 one with its /64) in 10 minutes, this one included: more than the ${policy.maxAttemptsPerIp} allowed.`,
  )
  check(
    'addressVisitors',
    policy.addressVisitorsRule,
    facts.visitorsFromAddress1h > policy.maxVisitorsPerAddress,
    `${facts.visitorsFromAddress1h} different visitors from this address in an hour, this one included: more than the ${policy.maxVisitorsPerAddress} allowed.`,
  )
  // The lists as they are at sign-up; the identification's own ipBlocklist signal only for decisions
  // stored before lists were read at sign-up (an address just moved to the allow list is not denied).
  const denied = facts.listed?.deny
  check(
    'ipBlocklist',
    policy.ipBlocklistRule,
    facts.listed ? Boolean(denied) : facts.network.blocked,
    denied
      ? `${capitalise(describeListEntry(denied))} is on this site's deny list.`
      : "The address is on this site's deny list.",
  )
  check(
    'fraudLabel',
    policy.fraudLabelRule,
    facts.label === 'fraud',
    'An analyst labelled this device as fraud.',
  )
  check(
    'datacenter',
    policy.datacenterRule,
    facts.network.datacenter,
    'The address belongs to a hosting network.',
  )
  check('vpn', policy.vpnRule, facts.network.vpn, 'A VPN was detected (medium or high confidence).')
  check(
    'proxy',
    policy.proxyRule,
    facts.network.proxy,
    'A proxy that Tessera does not trust forwarded the request.',
  )
  check('tor', policy.torRule, facts.network.tor, 'The address is a Tor exit relay.')
  check(
    'suspectScore',
    policy.suspectScoreRule,
    facts.suspectScore >= policy.suspectScoreThreshold,
    `Suspect score ${facts.suspectScore} is at or above ${policy.suspectScoreThreshold}.`,
  )
  const outcome = reasons.reduce<PolicyDecision['outcome']>(
    (strictest, reason) => (severity[reason.outcome] > severity[strictest] ? reason.outcome : strictest),
    'allow',
  )
  const vouched = allowedBy(facts)
  // The operator's word beats the rules, except a deny list entry or a fraud label (either way,
  // the stricter word wins): an allow-listed office range must not let a labelled fraudster in.
  const overruled = reasons.some((reason) => reason.rule === 'ipBlocklist' || reason.rule === 'fraudLabel')
  if (!vouched || overruled) return { outcome, reasons }
  const waived = vouched.waives === 'all' ? reasons : reasons.filter((reason) => reason.outcome !== 'deny')
  const standing = reasons.filter((reason) => !waived.includes(reason))
  if (standing.length > 0) return { outcome: 'deny', reasons: standing }
  const skipped = waived.length > 0 ? ` Rules not applied: ${waived.map((r) => r.rule).join(', ')}.` : ''
  return {
    outcome: 'allow',
    reasons: [{ rule: vouched.rule, outcome: 'allow', message: `${vouched.message}${skipped}` }],
  }
}

/**
 * What vouches for the sign-up, if anything, and how far. An allow-listed address or range waives
 * every rule: behind the proxies Tessera trusts, a client cannot choose its address. A visitor (on
 * the allow list, or labelled good) waives challenges only: a visitor is recognised by its
 * fingerprint, which a copy of it shares, and a copy must not inherit the owner's trust past a deny.
 * (Email domains are refused on the allow list: anyone can type an address.)
 */
function allowedBy(
  facts: SignupFacts,
): { rule: string; message: string; waives: 'all' | 'challenges' } | null {
  const allowed = facts.listed?.allow
  if (allowed)
    return {
      rule: 'allowList',
      message: `${capitalise(describeListEntry(allowed))} is on this site's allow list.`,
      waives: listEntryKind(allowed) === 'network' ? 'all' : 'challenges',
    }
  if (facts.label === 'good')
    return { rule: 'goodLabel', message: 'An analyst labelled this device as good.', waives: 'challenges' }
  return null
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * Accounts of this browser, and of browsers no older than it, count fully; accounts that newer
 * browsers with this fingerprint created count too, but alone they only challenge: a copy of a
 * fingerprint must not get its owner denied (see decide-signup.ts for "newer"). The inbox's accounts
 * from other devices are named in the reason, for the operator, and decide nothing.
 */
function checkAccountLimit(
  facts: SignupFacts,
  policy: SignupPolicy,
  check: (rule: string, outcome: RuleOutcome, triggered: boolean, message: string) => void,
) {
  const all = facts.accountsFromVisitor24h
  const inbox = facts.accountsForMailboxElsewhere24h
  const limit = policy.maxAccountsPerVisitor
  // The inbox's accounts from other devices never decide: counted in, they would tell someone
  // holding limit − 1 accounts whether an address of their choosing signed up lately.
  if (all < limit) return
  const sameInbox =
    inbox > 0
      ? ` Other devices created ${inbox} more for this address's inbox (a +tag, or dots Gmail ignores).`
      : ''
  const message = `This device already created ${all} account${all === 1 ? '' : 's'} in the last 24 hours, and at most ${limit} ${limit === 1 ? 'is' : 'are'} allowed.${sameInbox}`
  const ownOrOlder = all - facts.accountsByNewerBrowsers24h
  if (ownOrOlder >= limit || policy.accountLimitRule !== 'deny') {
    check('accountLimit', policy.accountLimitRule, true, message)
    return
  }
  const copies =
    facts.accountsByNewerBrowsers24h > 0
      ? ` ${facts.accountsByNewerBrowsers24h} came from other browsers with this fingerprint, first seen after this one (perhaps a copy of it).`
      : ''
  check('accountLimit', 'challenge', true, `${message}${copies} Challenged, not denied.`)
}
