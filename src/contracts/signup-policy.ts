import './browser-zod'
import { z } from 'zod'

const ruleOutcome = z.enum(['deny', 'challenge', 'off'])
/** What "challenge" asks of the visitor: a proof-of-work puzzle, or a code mailed to the address (TESSERA_SMTP_URL). */
const challengeKind = z.enum(['proofOfWork', 'emailCode'])
export type ChallengeKind = z.infer<typeof challengeKind>

/** A rule's limit: a whole number from 1 to `max`, with messages an operator can act on. */
const limit = (max: number) =>
  z
    .number({ error: 'Enter a number.' })
    .int('Enter a whole number.')
    .min(1, 'Enter 1 or more.')
    .max(max, `Enter ${max.toLocaleString('en')} or less.`)

/** The sign-up policy's thresholds and what each rule does; editable in the console. */
export const SignupPolicy = z.object({
  /** A bad bot (automation) was detected. */
  botRule: ruleOutcome.default('deny'),
  /** More than `maxAccountsPerVisitor` accounts from one visitor in 24 hours. */
  accountLimitRule: ruleOutcome.default('deny'),
  maxAccountsPerVisitor: limit(1000).default(3),
  /**
   * The identification lacks the agent's proof that it ran (a nonce from this server, unused and
   * unexpired): a script posted it, or a replayed one.
   */
  agentProofRule: ruleOutcome.default('challenge'),
  /** The browser was tampered with (anti-detect tools, overridden native functions). */
  tamperingRule: ruleOutcome.default('challenge'),
  /** More than `maxAttemptsPerVisitor` sign-up attempts from one visitor in 10 minutes. */
  visitorAttemptsRule: ruleOutcome.default('challenge'),
  maxAttemptsPerVisitor: limit(1000).default(5),
  /** More than `maxAttemptsPerIp` sign-up attempts from one IP address (an IPv6 one with the rest of its /64) in 10 minutes. */
  ipAttemptsRule: ruleOutcome.default('challenge'),
  maxAttemptsPerIp: limit(10_000).default(10),
  /**
   * More than `maxVisitorsPerAddress` visitors from the identification's address in the hour
   * before it (the ipVelocity signal). Off by default: an office or a carrier NAT puts many
   * devices behind one address.
   */
  addressVisitorsRule: ruleOutcome.default('off'),
  maxVisitorsPerAddress: limit(100_000).default(10),
  /**
   * The sign-up is on the site's deny list (the console's Sites panel): its address or range, its
   * visitor, or its email's domain. (The name is kept from when the list held addresses only.)
   */
  ipBlocklistRule: ruleOutcome.default('deny'),
  /** An analyst labelled the device as fraud (the visitor panel, the review queue). */
  fraudLabelRule: ruleOutcome.default('deny'),
  /** The address belongs to a hosting network (a cloud or data centre), where people rarely browse from. */
  datacenterRule: ruleOutcome.default('challenge'),
  /** A VPN was detected with medium or high confidence (many honest people use one: off by default). */
  vpnRule: ruleOutcome.default('off'),
  /** A proxy that Tessera does not trust forwarded the identification. */
  proxyRule: ruleOutcome.default('off'),
  /** The address is a Tor exit relay (TESSERA_TOR_EXIT_LIST). */
  torRule: ruleOutcome.default('challenge'),
  /** A suspect score at or above `suspectScoreThreshold`. */
  suspectScoreRule: ruleOutcome.default('challenge'),
  suspectScoreThreshold: limit(1000).default(20),
  /** What a challenged sign-up must pass. */
  challengeKind: challengeKind.default('proofOfWork'),
})
export type SignupPolicy = z.infer<typeof SignupPolicy>
export type RuleOutcome = z.infer<typeof ruleOutcome>

export const defaultSignupPolicy: SignupPolicy = SignupPolicy.parse({})
