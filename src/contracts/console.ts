import { z } from 'zod'
import { MatchEvidence } from './device'
import { normaliseListEntry, notAllowable } from './list-entry'
import { normaliseNetwork } from './network-range'
import { normaliseOrigin } from './origin'
import { weakOperatorPasswordFeedback } from './password-strength'
import { Role } from './roles'
import { StoredEvent } from './server-api'
import { StoredSignals } from './signals'
import { SignupPolicy } from './signup-policy'

/** An allowed origin, normalised as browsers send it (a trailing slash or a capital letter is no mistake). */
const origin = z
  .string()
  .trim()
  .transform((value, context) => {
    const normalised = normaliseOrigin(value)
    if (normalised) return normalised
    context.addIssue({
      code: 'custom',
      message: `"${value.slice(0, 100)}" is not an origin: give a scheme and host, like https://shop.example (no path).`,
    })
    return z.NEVER
  })

export const SignInRequest = z.object({
  username: z.string().trim().min(1).max(64).default('admin'),
  password: z.string().min(1, 'Enter the password.').max(256),
  /**
   * A solved proof-of-work challenge, asked for after a few wrong passwords from this address or
   * for this account (GET /api/console/session/challenge gives one of the size needed).
   */
  challenge: z.string().max(10_000).optional(),
})

/** GET /api/console/session/challenge's query: whose sign-in the puzzle is for. */
export const PasswordChallengeQuery = z.object({
  username: z.string().trim().min(1).max(64).default('admin'),
})

export const ChangePasswordRequest = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.').max(256),
  newPassword: z
    .string()
    .min(12, 'Use at least 12 characters.')
    .max(128, 'Use at most 128 characters.')
    .superRefine((password, context) => {
      if (password.length < 12 || password.length > 128) return
      const weakness = weakOperatorPasswordFeedback(password)
      if (weakness) context.addIssue({ code: 'custom', message: weakness })
    }),
  /** A solved proof-of-work challenge, asked for after wrong current passwords. */
  challenge: z.string().max(10_000).optional(),
})

export const SiteInput = z.object({
  name: z.string().trim().min(1, 'Give the site a name.').max(100),
  allowedOrigins: z
    .array(origin)
    .max(50)
    .transform((origins) => [...new Set(origins)]),
})

/** One entry of an allow or deny list, stored in its canonical form (list-entry.ts). */
const listEntry = z
  .string()
  .max(300)
  .transform((value, context) => {
    const entry = normaliseListEntry(value)
    if (entry === null) {
      context.addIssue({
        code: 'custom',
        message: `"${value.slice(0, 64)}" is not an IP address, a CIDR range (203.0.113.0/24), a visitor ID or an email domain (@example.com).`,
      })
      return z.NEVER
    }
    return entry
  })
const listEntries = z
  .array(listEntry)
  .max(1000, 'A list holds at most 1,000 entries.')
  .transform((entries) => [...new Set(entries)])

/**
 * PUT /api/console/sites/{siteId}/lists: the site's deny and allow lists. Their addresses and ranges
 * raise the ipBlocklist signal (deny); all their entries are read by the sign-up rules.
 */
export const SiteListsInput = z
  .object({ deny: listEntries, allow: listEntries })
  .superRefine(({ deny, allow }, context) => {
    allow.forEach((entry, index) => {
      const refusal = notAllowable(entry)
      if (refusal) context.addIssue({ code: 'custom', path: ['allow', index], message: refusal })
    })
    const denied = new Set(deny)
    const both = allow.findIndex((entry) => denied.has(entry))
    if (both >= 0)
      context.addIssue({
        code: 'custom',
        path: ['allow'],
        message: `${allow[both]} is on the deny list too: keep it on one list.`,
      })
  })

/** PUT /api/console/sites/{siteId}/workspace: share visitor identity with another site's workspace, or none. */
export const SiteWorkspaceInput = z.object({ shareWith: z.string().min(1).max(64).nullable() })

export const CreateApiKeyRequest = z.object({
  siteId: z.string().min(1).max(64),
  name: z.string().trim().min(1, 'Name the key after what uses it.').max(100),
})

export const WebhookFormat = z.enum(['tessera', 'fingerprint-v4'])
export type WebhookFormat = z.infer<typeof WebhookFormat>
/** What a webhook is sent: identifications, sign-up decisions (Tessera's format only). */
export const WebhookEvent = z.enum(['identification', 'signup'])
export type WebhookEvent = z.infer<typeof WebhookEvent>

export const CreateWebhookRequest = z
  .object({
    siteId: z.string().min(1).max(64),
    url: z.url({ protocol: /^https?$/, error: 'Enter an http:// or https:// URL.' }).max(2000),
    /** Tessera's own body and `tessera-signature`, or Fingerprint v4's event and `fpjs-event-signature`. */
    format: WebhookFormat.default('tessera'),
    events: z
      .array(WebhookEvent)
      .min(1, 'Choose what to send: identifications, sign-up decisions or both.')
      .max(2)
      .default(['identification'])
      .transform((events) => [...new Set(events)]),
  })
  .refine((webhook) => webhook.format === 'tessera' || !webhook.events.includes('signup'), {
    path: ['events'],
    message: "Fingerprint's format has no sign-up decisions: choose Tessera's format to receive them.",
  })

export const CreateSealingKeyRequest = z.object({ siteId: z.string().min(1).max(64) })

// Path parameters of the console's routes: as /api/v1's, an ID is 1 to 64 characters.
const pathId = z.string().min(1).max(64)
export const SiteIdParam = z.object({ siteId: pathId })
export const ApiKeyIdParam = z.object({ keyId: pathId })
export const SealingKeyIdParam = z.object({ keyId: pathId })
export const WebhookIdParam = z.object({ webhookId: pathId })
export const WebhookDeliveryParam = z.object({ webhookId: pathId, deliveryId: pathId })
/** POST /api/console/webhooks/{id}/tests: a test delivery takes nothing but the webhook. */
export const TestDeliveryRequest = z.object({}).strict()
/** POST /api/console/webhooks/{id}/retries: which of its undelivered deliveries to send now. */
export const RetryDeliveryRequest = z.object({ deliveryId: pathId })
export const ConsoleVisitorIdParam = z.object({ visitorId: pathId })
export const AccountIdParam = z.object({ accountId: pathId })

/** An analyst's judgement of a visitor or an account. */
export const Label = z.enum(['fraud', 'good'])
export type Label = z.infer<typeof Label>
/** PUT /api/console/visitors/{id}/label and /accounts/{id}/label (DELETE removes the label). */
export const LabelInput = z.object({ label: Label })
/** A label as the console shows it: what, by whom, when. */
export const SubjectLabel = z.object({ label: Label, operator: z.string(), labelledAt: z.string() })
export type SubjectLabel = z.infer<typeof SubjectLabel>

/**
 * POST /api/console/reviews: an analyst's verdict on a challenged or denied sign-up. Approving labels
 * its visitor (and account, if one was made) good, so the device's next sign-up is allowed;
 * rejecting labels them fraud.
 */
export const ReviewRequest = z.object({
  requestId: z.string().min(1).max(64),
  verdict: z.enum(['approve', 'reject']),
})
export const Review = z.enum(['approved', 'rejected'])

export const OverviewQuery = z.object({
  range: z.enum(['24h', '7d', '30d']).default('24h'),
  /** One site's public key: the figures of that site alone. */
  site: z.string().min(1).max(64).optional(),
})
export type Range = z.infer<typeof OverviewQuery>['range']

// Answers of the console's endpoints: the server builds them, the panels read them.

const count = z.number().int().nonnegative()
const moment = z.string()

/**
 * How an identification's address is classed in the overview: Tor, then a VPN (medium or high
 * confidence), then a hosting network; an address the databases place but no list names is
 * `residential` (homes, phones and offices alike); `unknown` is one no database places.
 */
export const NetworkType = z.enum(['residential', 'datacenter', 'vpn', 'tor', 'unknown'])
export type NetworkType = z.infer<typeof NetworkType>
const NetworkBreakdown = z.object({ identifications: count, allow: count, challenge: count, deny: count })

/** GET /api/console/overview: figures and a time series over the chosen range. */
export const Overview = z.object({
  range: OverviewQuery.shape.range.unwrap(),
  totals: z.object({ identifications: count, visitors: count, returningShare: z.number(), bots: count }),
  series: z.array(
    z.object({
      bucket: moment,
      identifications: count,
      visitors: count,
      bots: count,
      allow: count,
      challenge: count,
      deny: count,
    }),
  ),
  signups: z.object({ allow: count, challenge: count, deny: count }),
  /** Identifications and the sign-up decisions made on them, by the address's country and network type. */
  networks: z.object({
    byType: z.array(NetworkBreakdown.extend({ type: NetworkType })),
    /** The countries with the most identifications, most first; a null code is an address no database places. */
    byCountry: z.array(NetworkBreakdown.extend({ country: z.string().nullable() })),
  }),
})
export type Overview = z.infer<typeof Overview>
export type OverviewPoint = Overview['series'][number]

const sealingKeysAudit = z.object({ keys: z.array(z.object({ id: z.string(), createdAt: moment })) })

/** One site in GET /api/console/sites, with its keys and webhooks; never a secret. */
export const SiteSummary = z.object({
  id: z.string(),
  name: z.string(),
  publicKey: z.string(),
  allowedOrigins: z.array(z.string()),
  denyList: z.array(z.string()),
  allowList: z.array(z.string()),
  isDefault: z.boolean(),
  /** Sites of one workspace share visitor identity (visitor IDs, history, velocity); a new site has its own. */
  workspace: z.string(),
  apiKeys: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      createdAt: moment,
      lastUsedAt: moment.nullable(),
      revokedAt: moment.nullable(),
    }),
  ),
  webhooks: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      enabled: z.boolean(),
      format: WebhookFormat,
      events: z.array(WebhookEvent),
      createdAt: moment,
      /** Deleted, and restorable for a few minutes (undo-windows.ts); null while it is not. */
      deletedAt: moment.nullable(),
    }),
  ),
  /** Oldest first: the first seals, a second is the next key of a rotation. Never the key itself. */
  sealingKeys: z.array(z.object({ id: z.string(), createdAt: moment, encrypted: z.boolean() })),
  /** The last changes to the site's sealing keys (audit), newest first. */
  sealingKeyChanges: z.array(
    z.object({ operator: z.string(), changedAt: moment, before: sealingKeysAudit, after: sealingKeysAudit }),
  ),
})
export type SiteSummary = z.infer<typeof SiteSummary>
/** GET /api/console/sites; `sealingKeysEncrypted`: sealing keys are wrapped at rest (TESSERA_ENCRYPTION_KEY). */
export const SiteList = z.object({ sites: z.array(SiteSummary), sealingKeysEncrypted: z.boolean() })
export type SiteList = z.infer<typeof SiteList>

/** How many of a visitor's latest events its addresses and linked IDs are read from. */
export const RECENT_EVENTS_READ = 1_000

/** GET /api/console/lookup: one visitor, its addresses, accounts and latest events. */
export const VisitorPanel = z.object({
  visitorId: z.string(),
  firstSeenAt: moment,
  lastSeenAt: moment,
  visits: count,
  /** Of its latest RECENT_EVENTS_READ events, the most used first. */
  ips: z.array(z.object({ ip: z.string(), events: count })),
  /** Of its latest RECENT_EVENTS_READ events. */
  linkedIds: z.array(z.string()),
  /** The analyst's label of the visitor; null when none. */
  label: SubjectLabel.nullable(),
  accounts: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      name: z.string(),
      createdAt: moment,
      label: SubjectLabel.nullable(),
    }),
  ),
  events: z.array(
    z.object({
      requestId: z.string(),
      createdAt: moment,
      ip: z.string().nullable(),
      url: z.string().nullable(),
      userAgent: z.string().nullable(),
      /** The site whose key the event carried (null: none, or a site deleted since). */
      siteName: z.string().nullable(),
      confidence: z.number(),
      method: z.string(),
      suspectScore: z.number().int(),
      signals: StoredSignals,
      scoreBreakdown: z.array(z.object({ signal: z.string(), points: z.number(), because: z.string() })),
    }),
  ),
})
export type VisitorPanel = z.infer<typeof VisitorPanel>

/** A whole day (UTC), as a date input writes it. */
const day = z.iso.date({ error: 'Give a date like 2026-11-27.' })
const score = z.coerce
  .number({ error: 'Enter a number.' })
  .int('Enter a whole number.')
  .min(0, 'Enter 0 or more.')
  .max(1000, 'Enter 1,000 or less.')
/** An address or a CIDR range, normalised ("198.51.100.7/24" → "198.51.100.0/24"). */
const addressOrRange = z
  .string()
  .trim()
  .max(64)
  .transform((value, context) => {
    const network = normaliseNetwork(value)
    if (network !== null) return network
    context.addIssue({ code: 'custom', message: 'Give an IP address or a CIDR range like 203.0.113.0/24.' })
    return z.NEVER
  })

/** What the events list can be narrowed to; the console keeps them in its address. */
export const EventSignalFilter = z.enum([
  'all',
  'bot',
  'new',
  'returning',
  'tampering',
  'vpn',
  'tor',
  'datacenter',
  'proxy',
  'virtualMachine',
  'privateMode',
])
export type EventFilter = z.infer<typeof EventSignalFilter>
export const ConsoleEventFilters = z.object({
  signal: EventSignalFilter.default('all'),
  /** A site's public key. */
  site: z.string().min(1).max(64).optional(),
  /** From the start of this day (UTC) … */
  from: day.optional(),
  /** … to the end of this one. */
  to: day.optional(),
  minScore: score.optional(),
  maxScore: score.optional(),
  linkedId: z.string().trim().min(1).max(256).optional(),
  ip: addressOrRange.optional(),
})
export type ConsoleEventFilters = z.infer<typeof ConsoleEventFilters>

/** Ranges that are the right way round, checked on any schema holding the filters. */
function inOrder(
  filters: { from?: string; to?: string; minScore?: number; maxScore?: number },
  context: z.RefinementCtx,
) {
  if (filters.from && filters.to && filters.from > filters.to)
    context.addIssue({ code: 'custom', path: ['to'], message: 'The end date is before the start date.' })
  if (filters.minScore !== undefined && filters.maxScore !== undefined && filters.minScore > filters.maxScore)
    context.addIssue({
      code: 'custom',
      path: ['maxScore'],
      message: 'The highest score is below the lowest.',
    })
}

/** GET /api/console/events answers an EventPage (server-api.ts), newest first, filtered. */
export const ConsoleEventsQuery = ConsoleEventFilters.extend({
  cursor: z.string().max(200).optional(),
}).superRefine(inOrder)

/** What the sign-up decisions list can be narrowed to. */
export const DecisionFilters = z.object({
  outcome: z.enum(['all', 'allow', 'challenge', 'deny']).default('all'),
  /** A site's public key: that site's sign-ups only. */
  site: z.string().min(1).max(64).optional(),
  /** An address as typed (case aside), or `@domain` for every address there and at its subdomains. */
  email: z.string().trim().min(1).max(254).optional(),
})
export type DecisionFilters = z.infer<typeof DecisionFilters>
/** GET /api/console/reviews: the queue, of one site or all. */
export const ReviewQueueQuery = z.object({ site: z.string().min(1).max(64).optional() })
/** GET /api/console/decisions: the latest sign-up decisions with their reasons, filtered, a page at a time. */
export const DecisionsQuery = DecisionFilters.extend({ cursor: z.string().max(200).optional() })

/** GET /api/console/export: events (as the console's filters show them), decisions (as theirs) or one visitor's events, streamed. */
export const ExportQuery = ConsoleEventFilters.extend({
  kind: z.enum(['events', 'decisions', 'visitor']),
  format: z.enum(['csv', 'json']).default('csv'),
  outcome: DecisionFilters.shape.outcome,
  email: DecisionFilters.shape.email,
  visitorId: z.string().min(1).max(64).optional(),
})
  .superRefine(inOrder)
  .refine((query) => query.kind !== 'visitor' || query.visitorId !== undefined, {
    path: ['visitorId'],
    message: 'Name the visitor to export.',
  })
export type ExportQuery = z.infer<typeof ExportQuery>
export type ExportRequest = z.input<typeof ExportQuery>

export const LookupQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Type something to look up.')
    .max(256, 'A look-up is at most 256 characters: an ID, an email, an address or a range.'),
  /** GET /api/console/lookup: a site's public key, whose events alone the history lists. */
  site: z.string().min(1).max(64).optional(),
})

/** GET /api/console/network?q=<address or CIDR>: the visitors seen from it lately, most recent first. */
export const NetworkVisitors = z.object({
  /** The address or range looked up, normalised ("198.51.100.7/24" → "198.51.100.0/24"). */
  range: z.string(),
  days: count,
  visitors: z.array(
    z.object({
      visitorId: z.string(),
      events: count,
      lastSeenAt: moment,
      ips: z.array(z.string()),
      linkedIds: z.array(z.string()),
    }),
  ),
  /** More visitors than listed were seen. */
  more: z.boolean(),
})
export type NetworkVisitors = z.infer<typeof NetworkVisitors>

/** GET /api/console/decisions: the latest sign-up decisions with their reasons. */
export const SignupDecision = z.object({
  requestId: z.string(),
  visitorId: z.string().nullable(),
  ip: z.string().nullable(),
  email: z.string(),
  outcome: z.enum(['allow', 'challenge', 'deny']),
  reasons: z.array(z.object({ rule: z.string(), outcome: z.string(), message: z.string() })),
  challengeSolved: z.boolean(),
  accountId: z.string().nullable(),
  createdAt: moment,
  /** The site of its identification (null: none, or a site deleted since). */
  siteName: z.string().nullable(),
  /** The labels of its visitor and account now (null: none, or no account). */
  visitorLabel: Label.nullable(),
  accountLabel: Label.nullable(),
  /** The analyst's review, for a challenged or denied sign-up; null until reviewed. */
  review: Review.nullable(),
  reviewedBy: z.string().nullable(),
  /**
   * For a challenge the same device answered in a later attempt (the two are one sign-up, reviewed
   * and counted as that attempt): the attempt's request ID and outcome (null: its decision is gone).
   * Null for anything else, and for a challenge no attempt answered.
   */
  answer: z
    .object({ requestId: z.string(), outcome: z.enum(['allow', 'challenge', 'deny']).nullable() })
    .nullable(),
})
export type SignupDecision = z.infer<typeof SignupDecision>
export const SignupDecisionList = z.object({
  decisions: z.array(SignupDecision),
  /** Pass back as `cursor` for the next (older) page; null on the last. */
  nextCursor: z.string().nullable(),
})
/**
 * GET /api/console/reviews: challenged (solved or not) and denied sign-ups of the last 30 days no one
 * reviewed yet, newest first (the first 50).
 */
export const ReviewQueue = z.object({
  decisions: z.array(SignupDecision),
  /** More wait than are listed. */
  moreWaiting: z.boolean(),
  days: count,
})
export type ReviewQueue = z.infer<typeof ReviewQueue>
/** POST /api/console/reviews: what the verdict stored. */
export const Reviewed = z.object({
  review: Review,
  visitorLabel: Label.nullable(),
  accountLabel: Label.nullable(),
})
/** DELETE /api/console/reviews/{requestId}: the verdict undone, and the labels the sign-up's subjects have now. */
export const Unreviewed = z.object({
  visitorLabel: Label.nullable(),
  accountLabel: Label.nullable(),
})
export type SignupDecisionList = z.infer<typeof SignupDecisionList>

/** GET /api/console/events/{requestId}: one identification, its match and the sign-up it served. */
export const EventDetail = z.object({
  event: StoredEvent,
  /** The site whose key it carried; null for an event without one, or of a site deleted since. */
  siteName: z.string().nullable(),
  method: z.enum(['token', 'fingerprint', 'new']),
  /** The match's evidence per facet; null for a token match or a new visitor. */
  evidence: MatchEvidence.nullable(),
  decision: SignupDecision.nullable(),
})
export type EventDetail = z.infer<typeof EventDetail>
export const EventIdParam = z.object({ requestId: z.string().min(1).max(64) })

/** One change to the sign-up policy: who, when, and the policy before and after. */
export const PolicyChange = z.object({
  operator: z.string(),
  changedAt: moment,
  before: SignupPolicy.nullable(),
  after: SignupPolicy,
})
export type PolicyChange = z.infer<typeof PolicyChange>
/** GET /api/console/rules: the policy in force and its latest changes, newest first. */
export const PolicyWithAudit = z.object({
  policy: SignupPolicy,
  /** Asked for a site: it has no rules of its own and follows the default ones. */
  inherited: z.boolean(),
  audit: z.array(PolicyChange),
})
/** GET, PUT and DELETE /api/console/rules, and its preview: `site`, a site's public key, for its own rules. */
export const RulesQuery = z.object({ site: z.string().min(1).max(64).optional() })
export type PolicyWithAudit = z.infer<typeof PolicyWithAudit>

const outcome = z.enum(['allow', 'challenge', 'deny'])
/** POST /api/console/rules/preview: what a candidate policy would have changed in the last days' sign-ups. */
export const PolicyPreview = z.object({
  days: count,
  /** Decisions of the period tried (those with their facts stored). */
  decisions: count,
  /** Decisions of the period stored before facts were kept: not tried. */
  withoutFacts: count,
  changes: z.array(
    z.object({
      from: outcome,
      to: outcome,
      count,
      examples: z.array(
        z.object({
          requestId: z.string(),
          email: z.string(),
          createdAt: moment,
          reasons: z.array(z.string()),
        }),
      ),
    }),
  ),
})
export type PolicyPreview = z.infer<typeof PolicyPreview>

/** GET /api/console/webhooks/{id}: one attempt-tracked delivery of a webhook, newest first. */
export const WebhookDelivery = z.object({
  id: z.string(),
  eventType: z.string(),
  createdAt: moment,
  attempts: count,
  nextAttemptAt: moment,
  deliveredAt: moment.nullable(),
  failedAt: moment.nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
})
export type WebhookDelivery = z.infer<typeof WebhookDelivery>
export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) })
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>

/** One attempt of a delivery: what was sent and what came back (the starts of both bodies). */
export const WebhookAttempt = z.object({
  attemptedAt: moment,
  durationMs: count,
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  responseBody: z.string().nullable(),
})
export type WebhookAttempt = z.infer<typeof WebhookAttempt>
/** GET /api/console/webhooks/{id}/deliveries/{deliveryId}: the delivery and its attempts, newest first. */
export const WebhookDeliveryDetail = z.object({
  delivery: WebhookDelivery,
  attempts: z.array(WebhookAttempt),
})
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>
/** POST /api/console/webhooks/{id}/tests */
export const QueuedDelivery = z.object({ deliveryId: z.string() })

// Answers that carry a secret: shown once, in this answer only.

/** POST /api/console/keys */
export const CreatedApiKey = z.object({ id: z.string(), key: z.string() })
export type CreatedApiKey = z.infer<typeof CreatedApiKey>
/** POST /api/console/webhooks */
export const CreatedWebhook = z.object({
  id: z.string(),
  siteId: z.string(),
  url: z.string(),
  secret: z.string(),
  format: WebhookFormat,
  events: z.array(WebhookEvent),
})
export type CreatedWebhook = z.infer<typeof CreatedWebhook>
/** POST /api/console/sealing-keys: `sealing` is true when this key seals from now on. */
export const CreatedSealingKey = z.object({
  id: z.string(),
  key: z.string(),
  sealing: z.boolean(),
  createdAt: moment,
})
export type CreatedSealingKey = z.infer<typeof CreatedSealingKey>
/** POST /api/console/sites */
export const CreatedSite = z.object({
  id: z.string(),
  name: z.string(),
  publicKey: z.string(),
  allowedOrigins: z.array(z.string()),
})
export type CreatedSite = z.infer<typeof CreatedSite>

// The team: operators, their roles, invitations.

/**
 * A chosen operator name, stored in lower case as sign-in looks it up (a "Bob" could not sign in
 * as typed), and in plain ASCII as single sign-on's names are: a Cyrillic "а" would let "аdmin" pass
 * for "admin" in the team list and the audit trail.
 */
const username = z
  .string()
  .trim()
  .min(2, 'Use at least 2 characters.')
  .max(64, 'Use at most 64 characters.')
  .regex(/^[A-Za-z0-9._-]+$/, 'Use letters a–z, digits, dots, hyphens and underscores.')
  .transform((name) => name.toLowerCase())

/** GET /api/console/team: who is on the team, and the invitations still open. */
export const Team = z.object({
  operators: z.array(
    z.object({
      id: z.string(),
      username: z.string(),
      role: Role,
      createdAt: moment,
      you: z.boolean(),
      /** Signs in through the OpenID Connect provider, which gives the role. */
      singleSignOn: z.boolean(),
    }),
  ),
  invitations: z.array(
    z.object({ id: z.string(), role: Role, createdBy: z.string(), createdAt: moment, expiresAt: moment }),
  ),
})
export type Team = z.infer<typeof Team>
export const OperatorIdParam = z.object({ operatorId: pathId })
export const InvitationIdParam = z.object({ invitationId: pathId })
/** POST /api/console/invitations: an invitation for a role; PATCH /api/console/team/{id}: a new role. */
export const RoleInput = z.object({ role: Role })
/** The invitation's token, shown once (the link is the console's address with `?invitation=<token>`). */
export const CreatedInvitation = z.object({ id: z.string(), token: z.string(), expiresAt: moment })
/** POST /api/console/invitations/acceptance: the invited person chooses a name and a password. */
export const AcceptInvitationRequest = z.object({
  token: z.string().min(1).max(200),
  username,
  password: ChangePasswordRequest.shape.newPassword,
})
