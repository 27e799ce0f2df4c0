import { z } from 'zod'
import {
  AccountIdParam,
  ApiKeyIdParam,
  ChangePasswordRequest,
  ConsoleEventsQuery,
  ConsoleVisitorIdParam,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreatedSealingKey,
  CreatedSite,
  CreatedWebhook,
  CreateSealingKeyRequest,
  CreateWebhookRequest,
  DecisionsQuery,
  EventDetail,
  EventIdParam,
  ExportQuery,
  LabelInput,
  LookupQuery,
  NetworkVisitors,
  Overview,
  OverviewQuery,
  PasswordChallengeQuery,
  PolicyPreview,
  PolicyWithAudit,
  QueuedDelivery,
  RetryDeliveryRequest,
  Reviewed,
  ReviewQueue,
  ReviewRequest,
  SealingKeyIdParam,
  SignInRequest,
  SignupDecisionList,
  SiteIdParam,
  SiteInput,
  SiteList,
  SiteListsInput,
  SiteWorkspaceInput,
  TestDeliveryRequest,
  VisitorPanel,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookDeliveryParam,
  WebhookIdParam,
} from './console'
import { EventPage } from './server-api'
import { SignupPolicy } from './signup-policy'

// The console's small answers, named once here beside the table that uses them.

/** A change was saved (a site, its lists, its workspace). */
export const Updated = z.object({ updated: z.literal(true) })
/** POST /api/console/session: signed in; the session cookie comes with the answer. */
export const SignedIn = z.object({ signedIn: z.literal(true), expiresAt: z.string() })
/** GET /api/console/session: who is signed in. */
export const SignedInOperator = z.object({ username: z.string() })
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
  'GET /api/console/session': { answer: SignedInOperator },
  'DELETE /api/console/session': {},
  'GET /api/console/session/challenge': { query: PasswordChallengeQuery, answer: PasswordChallenge },
  'POST /api/console/password': { body: ChangePasswordRequest, answer: PasswordChanged },

  'GET /api/console/overview': { query: OverviewQuery, answer: Overview },
  'GET /api/console/events': { query: ConsoleEventsQuery, answer: EventPage },
  'GET /api/console/events/:requestId': { params: EventIdParam, answer: EventDetail },
  'GET /api/console/export': { query: ExportQuery, download: true },
  'GET /api/console/lookup': { query: LookupQuery, answer: VisitorPanel },
  'GET /api/console/network': { query: LookupQuery, answer: NetworkVisitors },
  'DELETE /api/console/visitors/:visitorId': { params: ConsoleVisitorIdParam },
  'PUT /api/console/visitors/:visitorId/label': { params: ConsoleVisitorIdParam, body: LabelInput },
  'DELETE /api/console/visitors/:visitorId/label': { params: ConsoleVisitorIdParam },
  'PUT /api/console/accounts/:accountId/label': { params: AccountIdParam, body: LabelInput },
  'DELETE /api/console/accounts/:accountId/label': { params: AccountIdParam },
  'GET /api/console/decisions': { query: DecisionsQuery, answer: SignupDecisionList },
  'GET /api/console/reviews': { answer: ReviewQueue },
  'POST /api/console/reviews': { body: ReviewRequest, answer: Reviewed },
  'GET /api/console/rules': { answer: PolicyWithAudit },
  'PUT /api/console/rules': { body: SignupPolicy.strict(), answer: SavedPolicy },
  'POST /api/console/rules/preview': { body: SignupPolicy.strict(), answer: PolicyPreview },

  'GET /api/console/sites': { answer: SiteList },
  'POST /api/console/sites': { body: SiteInput, answer: CreatedSite },
  'PATCH /api/console/sites/:siteId': { params: SiteIdParam, body: SiteInput, answer: Updated },
  'PUT /api/console/sites/:siteId/lists': {
    params: SiteIdParam,
    body: SiteListsInput,
    answer: Updated,
  },
  'PUT /api/console/sites/:siteId/workspace': {
    params: SiteIdParam,
    body: SiteWorkspaceInput,
    answer: Updated,
  },
  'POST /api/console/keys': { body: CreateApiKeyRequest, answer: CreatedApiKey },
  'DELETE /api/console/keys/:keyId': { params: ApiKeyIdParam },
  'DELETE /api/console/keys/:keyId/revocation': { params: ApiKeyIdParam },
  'POST /api/console/sealing-keys': { body: CreateSealingKeyRequest, answer: CreatedSealingKey },
  'DELETE /api/console/sealing-keys/:keyId': { params: SealingKeyIdParam },
  'POST /api/console/webhooks': { body: CreateWebhookRequest, answer: CreatedWebhook },
  'GET /api/console/webhooks/:webhookId': { params: WebhookIdParam, answer: WebhookDeliveryList },
  'GET /api/console/webhooks/:webhookId/deliveries/:deliveryId': {
    params: WebhookDeliveryParam,
    answer: WebhookDeliveryDetail,
  },
  'POST /api/console/webhooks/:webhookId/tests': {
    params: WebhookIdParam,
    body: TestDeliveryRequest,
    answer: QueuedDelivery,
  },
  'POST /api/console/webhooks/:webhookId/retries': { params: WebhookIdParam, body: RetryDeliveryRequest },
  'DELETE /api/console/webhooks/:webhookId': { params: WebhookIdParam },
  'DELETE /api/console/webhooks/:webhookId/deletion': { params: WebhookIdParam },
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
