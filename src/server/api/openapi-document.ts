import 'server-only'
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi'
import {
  FingerprintErrorResponse,
  FingerprintEvent,
  FingerprintEventIdParam,
  FingerprintEventSearch,
  FingerprintEventUpdate,
  FingerprintGetEventQuery,
  FingerprintNoQuery,
  FingerprintSearchQuery,
  FingerprintVisitorIdParam,
} from '@/contracts/fingerprint-v4'
import { IdentifyRequest, IdentifyResponse, NonceQuery, NonceResponse } from '@/contracts/identify'
import {
  ApiError,
  EventPage,
  EventSearchQuery,
  RequestIdParam,
  StoredEvent,
  VisitorHistory,
  VisitorHistoryQuery,
  VisitorIdParam,
} from '@/contracts/server-api'

const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: 'Error', content: { 'application/json': { schema: ApiError } } },
    ]),
  )

/** /v4 answers its errors in Fingerprint Server API v4's shape. */
const fingerprintErrors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: 'Error', content: { 'application/json': { schema: FingerprintErrorResponse } } },
    ]),
  )

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests and answers. */
export function buildOpenApiDocument(serverUrl: string) {
  const registry = new OpenAPIRegistry()
  const bearer = registry.registerComponent('securitySchemes', 'secretKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'A secret API key from the console: `Authorization: Bearer sk_…`',
  })
  const secured = [{ [bearer.name]: [] }]

  registry.registerPath({
    method: 'post',
    path: '/api/v1/identify',
    summary: "The agent's call: identify the browser and store an event.",
    // text/plain too: a browser sends it from another origin without a CORS preflight (the body is JSON all the same).
    request: {
      body: {
        content: {
          'application/json': { schema: IdentifyRequest },
          'text/plain': { schema: IdentifyRequest },
        },
      },
    },
    responses: {
      200: { description: 'Identified', content: { 'application/json': { schema: IdentifyResponse } } },
      ...errors(400, 413, 415, 429, 503),
    },
  })
  registry.registerPath({
    method: 'get',
    path: '/api/v1/nonce',
    summary: "The agent's proof that it ran: a nonce for its next identify call (two minutes, one use).",
    request: { query: NonceQuery },
    responses: {
      200: { description: 'Issued', content: { 'application/json': { schema: NonceResponse } } },
      ...errors(400, 403),
    },
  })
  registry.registerPath({
    method: 'get',
    path: '/api/v1/events/{requestId}',
    summary: 'One identification event.',
    security: secured,
    request: { params: RequestIdParam },
    responses: {
      200: { description: 'The event', content: { 'application/json': { schema: StoredEvent } } },
      ...errors(400, 401, 403, 404, 429),
    },
  })
  registry.registerPath({
    method: 'get',
    path: '/api/v1/events',
    summary: "Search the site's events, newest first.",
    security: secured,
    request: { query: EventSearchQuery },
    responses: {
      200: { description: 'A page of events', content: { 'application/json': { schema: EventPage } } },
      ...errors(400, 401, 429),
    },
  })
  registry.registerPath({
    method: 'get',
    path: '/api/v1/visitors/{visitorId}',
    summary: "A visitor's history on the site, newest first.",
    security: secured,
    request: { params: VisitorIdParam, query: VisitorHistoryQuery },
    responses: {
      200: { description: 'The history', content: { 'application/json': { schema: VisitorHistory } } },
      ...errors(400, 401, 403, 404, 429),
    },
  })
  registry.registerPath({
    method: 'delete',
    path: '/api/v1/visitors/{visitorId}',
    summary:
      "Delete the visitor's data on the key's site (the visitor itself once no other site has seen it). Idempotent.",
    security: secured,
    request: { params: VisitorIdParam },
    responses: { 204: { description: 'Deleted (or nothing of it on this site)' }, ...errors(400, 401, 429) },
  })

  registerFingerprintPaths(registry, secured)

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Tessera API',
      version: '1.0.0',
      description: 'Device identification and sign-up protection, self-hosted.',
    },
    servers: [{ url: serverUrl }],
  })
}

/**
 * The Fingerprint Server API v4 face (`/v4`): the same events, in Fingerprint's shapes, so that
 * Fingerprint's server SDKs work against Tessera with another base URL.
 */
function registerFingerprintPaths(registry: OpenAPIRegistry, secured: Record<string, string[]>[]) {
  const tags = ['Fingerprint Server API v4']
  registry.registerPath({
    method: 'get',
    path: '/v4/events/{event_id}',
    tags,
    summary: "One event in v4's shape (Fingerprint's getEvent).",
    security: secured,
    request: { params: FingerprintEventIdParam, query: FingerprintGetEventQuery },
    responses: {
      200: { description: 'The event', content: { 'application/json': { schema: FingerprintEvent } } },
      ...fingerprintErrors(400, 403, 404, 429),
    },
  })
  registry.registerPath({
    method: 'patch',
    path: '/v4/events/{event_id}',
    tags,
    summary: "Set an event's linked_id, tags (replaced whole) or suspect flag (Fingerprint's updateEvent).",
    security: secured,
    request: {
      params: FingerprintEventIdParam,
      query: FingerprintNoQuery,
      body: { content: { 'application/json': { schema: FingerprintEventUpdate } } },
    },
    responses: { 200: { description: 'Updated' }, ...fingerprintErrors(400, 403, 404, 413, 415, 429) },
  })
  registry.registerPath({
    method: 'get',
    path: '/v4/events',
    tags,
    summary: "Search the site's events with v4's filters, newest first (Fingerprint's searchEvents).",
    description:
      'Searches the last 7 days unless `start` says otherwise. Filters for signals Tessera does not compute (bot_info, the mobile signals, anti_detect_browser…) are refused with 400; vpn, proxy, tor_node and asn filter as in v4.',
    security: secured,
    request: { query: FingerprintSearchQuery },
    responses: {
      200: {
        description: 'A page of events',
        content: { 'application/json': { schema: FingerprintEventSearch } },
      },
      ...fingerprintErrors(400, 403, 429),
    },
  })
  registry.registerPath({
    method: 'delete',
    path: '/v4/visitors/{visitor_id}',
    tags,
    summary: "Delete the visitor's data on the key's site (Fingerprint's deleteVisitorData).",
    security: secured,
    request: { params: FingerprintVisitorIdParam, query: FingerprintNoQuery },
    responses: {
      200: { description: 'Deleted' },
      ...fingerprintErrors(400, 403, 404, 429),
    },
  })
}
