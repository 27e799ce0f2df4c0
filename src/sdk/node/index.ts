/**
 * Tessera's server SDK (`tessera/server`): a typed client of the Server API and webhook
 * verification. Node.js only (it uses node:crypto); keep the secret key on your server.
 */
export {
  type ClientOptions,
  createClient,
  TesseraApiError,
  type TesseraClient,
} from './client'
export type {
  ErrorCode,
  Event,
  EventPage,
  EventSearchQuery,
  IpInfo,
  JsonValue,
  Signals,
  VisitorHistory,
  VisitorHistoryQuery,
} from './types'
export { type VerifyWebhookOptions, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from './verify-webhook'
