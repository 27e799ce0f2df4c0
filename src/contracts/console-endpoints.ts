import { z } from 'zod'
import {
  AcceptInvitationRequest,
  AccountIdParam,
  ApiKeyIdParam,
  ChangePasswordRequest,
  ConsoleEventsQuery,
  ConsoleVisitorIdParam,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreatedInvitation,
  CreatedSealingKey,
  CreatedSite,
  CreatedWebhook,
  CreateSealingKeyRequest,
  CreateWebhookRequest,
  DecisionsQuery,
  EventDetail,
  EventIdParam,
  ExportQuery,
  InvitationIdParam,
  LabelInput,
  LookupQuery,
  NetworkVisitors,
  OperatorIdParam,
  Overview,
  OverviewQuery,
  PasswordChallengeQuery,
  PolicyPreview,
  PolicyWithAudit,
  QueuedDelivery,
  RetryDeliveryRequest,
  Reviewed,
  ReviewQueue,
  ReviewQueueQuery,
  ReviewRequest,
  RoleInput,
  RulesQuery,
  SealingKeyIdParam,
  SignInRequest,
  SignupDecisionList,
  SiteIdParam,
  SiteInput,
  SiteList,
  SiteListsInput,
  SiteWorkspaceInput,
  Team,
  TestDeliveryRequest,
  Unreviewed,
  VisitorPanel,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookDeliveryParam,
  WebhookIdParam,
} from './console'
import { Role } from './roles'
import { EventPage } from './server-api'
import { SignupPolicy } from './signup-policy'

// The console's small answers, named once here beside the table that uses them.

/** A change was saved (a site, its lists, its workspace). */
export const Updated = z.object({ updated: z.literal(true) })
/** POST /api/console/session: signed in; the session cookie comes with the answer. */
export const SignedIn = z.object({ signedIn: z.literal(true), expiresAt: z.string() })
/** GET /api/console/session: who is signed in. */
export const SignedInOperator = z.object({ username: z.string(), role: Role })
/** POST /api/console/password */
export const PasswordChanged = z.object({ changed: z.literal(true) })
/** PUT /api/console/rules: the policy as saved. */
export const SavedPolicy = z.object({ policy: SignupPolicy })
/**
 * GET /api/console/session/challenge: a signed ALTCHA (v2) challenge, read by the proof-of-work
 * widget; `data.difficulty` is the work asked for, more after wrong passwords (sign-in-throttle.ts).
 */
export const PasswordChallenge = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    memoryCost: z.number().optional(),
    parallelism: z.number().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().optional(),
})

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What one console endpoint takes and answers. */
interface EndpointContract {
  /** The least role that may call it (contracts/roles.ts); none for the two calls made signed out. */
  role?: Role
  /** Path parameters, one per `:name` segment of the path; the route checks them (consoleHandler). */
  params?: z.ZodType<Record<string, string>, Record<string, string>>
  query?: z.ZodType<object>
  body?: z.ZodType
  /** The answer's shape; none for 204 No Content. */
  answer?: z.ZodType
  /** The answer is a file to save (a streamed CSV or JSON export), not an answer to parse. */
  download?: true
}

/**
 * Every console endpoint, keyed `METHOD /path` (`:name` a path parameter): the routes validate with
 * these schemas and the panels' calls are typed by them. The key carries the method and path, so
 * the browser imports the table as a type only: none of the schemas (nor zxcvbn's dictionaries, nor
 * the OpenAPI extension they bring) reach its bundle. endpoints.test.ts holds each route to its entry.
 */
export const consoleEndpoints = {
  'POST /api/console/session': { body: SignInRequest, answer: SignedIn },
  'GET /api/console/session': { role: 'analyst', answer: SignedInOperator },
  'DELETE /api/console/session': {},
  'GET /api/console/session/challenge': { query: PasswordChallengeQuery, answer: PasswordChallenge },
  'POST /api/console/password': { role: 'analyst', body: ChangePasswordRequest, answer: PasswordChanged },

  'GET /api/console/overview': { role: 'analyst', query: OverviewQuery, answer: Overview },
  'GET /api/console/events': { role: 'analyst', query: ConsoleEventsQuery, answer: EventPage },
  'GET /api/console/events/:requestId': { role: 'analyst', params: EventIdParam, answer: EventDetail },
  'GET /api/console/export': { role: 'analyst', query: ExportQuery, download: true },
  'GET /api/console/lookup': { role: 'analyst', query: LookupQuery, answer: VisitorPanel },
  'GET /api/console/network': { role: 'analyst', query: LookupQuery, answer: NetworkVisitors },
  'DELETE /api/console/visitors/:visitorId': { role: 'admin', params: ConsoleVisitorIdParam },
  'PUT /api/console/visitors/:visitorId/label': {
    role: 'analyst',
    params: ConsoleVisitorIdParam,
    body: LabelInput,
  },
  'DELETE /api/console/visitors/:visitorId/label': { role: 'analyst', params: ConsoleVisitorIdParam },
  'PUT /api/console/accounts/:accountId/label': { role: 'analyst', params: AccountIdParam, body: LabelInput },
  'DELETE /api/console/accounts/:accountId/label': { role: 'analyst', params: AccountIdParam },
  'GET /api/console/decisions': { role: 'analyst', query: DecisionsQuery, answer: SignupDecisionList },
  'GET /api/console/reviews': { role: 'analyst', query: ReviewQueueQuery, answer: ReviewQueue },
  'POST /api/console/reviews': { role: 'analyst', body: ReviewRequest, answer: Reviewed },
  'DELETE /api/console/reviews/:requestId': { role: 'analyst', params: EventIdParam, answer: Unreviewed },
  'GET /api/console/rules': { role: 'analyst', query: RulesQuery, answer: PolicyWithAudit },
  'PUT /api/console/rules': {
    role: 'admin',
    query: RulesQuery,
    body: SignupPolicy.strict(),
    answer: SavedPolicy,
  },
  'DELETE /api/console/rules': { role: 'admin', query: RulesQuery },
  'POST /api/console/rules/preview': {
    role: 'analyst',
    query: RulesQuery,
    body: SignupPolicy.strict(),
    answer: PolicyPreview,
  },

  'GET /api/console/sites': { role: 'analyst', answer: SiteList },
  'POST /api/console/sites': { role: 'admin', body: SiteInput, answer: CreatedSite },
  'PATCH /api/console/sites/:siteId': {
    role: 'admin',
    params: SiteIdParam,
    body: SiteInput,
    answer: Updated,
  },
  'PUT /api/console/sites/:siteId/lists': {
    role: 'admin',
    params: SiteIdParam,
    body: SiteListsInput,
    answer: Updated,
  },
  'PUT /api/console/sites/:siteId/workspace': {
    role: 'admin',
    params: SiteIdParam,
    body: SiteWorkspaceInput,
    answer: Updated,
  },
  'POST /api/console/keys': { role: 'admin', body: CreateApiKeyRequest, answer: CreatedApiKey },
  'DELETE /api/console/keys/:keyId': { role: 'admin', params: ApiKeyIdParam },
  'DELETE /api/console/keys/:keyId/revocation': { role: 'admin', params: ApiKeyIdParam },
  'POST /api/console/sealing-keys': {
    role: 'admin',
    body: CreateSealingKeyRequest,
    answer: CreatedSealingKey,
  },
  'DELETE /api/console/sealing-keys/:keyId': { role: 'admin', params: SealingKeyIdParam },
  'POST /api/console/webhooks': { role: 'admin', body: CreateWebhookRequest, answer: CreatedWebhook },
  'GET /api/console/webhooks/:webhookId': {
    role: 'analyst',
    params: WebhookIdParam,
    answer: WebhookDeliveryList,
  },
  'GET /api/console/webhooks/:webhookId/deliveries/:deliveryId': {
    role: 'analyst',
    params: WebhookDeliveryParam,
    answer: WebhookDeliveryDetail,
  },
  'POST /api/console/webhooks/:webhookId/tests': {
    role: 'admin',
    params: WebhookIdParam,
    body: TestDeliveryRequest,
    answer: QueuedDelivery,
  },
  'POST /api/console/webhooks/:webhookId/retries': {
    role: 'admin',
    params: WebhookIdParam,
    body: RetryDeliveryRequest,
  },
  'DELETE /api/console/webhooks/:webhookId': { role: 'admin', params: WebhookIdParam },
  'GET /api/console/team': { role: 'owner', answer: Team },
  'PATCH /api/console/team/:operatorId': { role: 'owner', params: OperatorIdParam, body: RoleInput },
  'DELETE /api/console/team/:operatorId': { role: 'owner', params: OperatorIdParam },
  'POST /api/console/invitations': { role: 'owner', body: RoleInput, answer: CreatedInvitation },
  'DELETE /api/console/invitations/:invitationId': { role: 'owner', params: InvitationIdParam },
  'POST /api/console/invitations/acceptance': { body: AcceptInvitationRequest, answer: SignedIn },
  'DELETE /api/console/webhooks/:webhookId/deletion': { role: 'admin', params: WebhookIdParam },
} satisfies Record<`${Method} /api/console/${string}`, EndpointContract>

export type ConsoleEndpoint = keyof typeof consoleEndpoints
type ContractOf<Endpoint extends ConsoleEndpoint> = (typeof consoleEndpoints)[Endpoint]

/** One part of a request, as the caller writes it (the schema's input: a default may be left out). */
type Takes<Contract, Part extends 'params' | 'query' | 'body'> =
  Contract extends Record<Part, z.ZodType>
    ? { [Name in Part]: z.input<Contract[Part]> }
    : { [Name in Part]?: never }

/** What a call to the endpoint sends: its path parameters, query and body, each where it takes one. */
export type ConsoleRequest<Endpoint extends ConsoleEndpoint> = Takes<ContractOf<Endpoint>, 'params'> &
  Takes<ContractOf<Endpoint>, 'query'> &
  Takes<ContractOf<Endpoint>, 'body'>

/** What the endpoint answers; `undefined` for 204 No Content. */
export type ConsoleAnswer<Endpoint extends ConsoleEndpoint> = AnswerOf<ContractOf<Endpoint>>

/** The answer of a table entry: a route writes `json(answer satisfies AnswerOf<typeof endpoint>)`. */
export type AnswerOf<Contract> = Contract extends { answer: z.ZodType }
  ? z.output<Contract['answer']>
  : undefined
