import type {
  ErrorCode,
  Event,
  EventPage,
  EventSearchQuery,
  VisitorHistory,
  VisitorHistoryQuery,
} from './types'

export interface ClientOptions {
  /** Tessera's address, e.g. https://tessera.example.com (its own, not a first-party proxy's). */
  endpoint: string
  /** A secret API key from the console (`sk_…`). Keep it on your server. */
  secretKey: string
  /**
   * Gives up on a request after this long (ms).
   * @default 10000
   */
  timeout?: number
  /**
   * The fetch to use, e.g. one with a proxy agent.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch
}

/**
 * A refusal from Tessera (4xx/5xx with `{ error: { code, message } }`); `unexpected_response` when
 * something else answered (the endpoint is not Tessera: a first-party proxy's path, a typo);
 * `network_error` when nothing answered.
 */
export class TesseraApiError extends Error {
  override readonly name = 'TesseraApiError'
  /** The HTTP status; 0 when no answer arrived (network error, time-out). */
  readonly status: number
  readonly code: ErrorCode | 'network_error' | 'unexpected_response'

  constructor(
    status: number,
    code: ErrorCode | 'network_error' | 'unexpected_response',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.status = status
    this.code = code
  }
}

/** A query whose cursor may be the previous page's `nextCursor` as it is: null on the first page. */
type PassedBack<Query, Cursor extends keyof Query> = Omit<Query, Cursor> & {
  [Key in Cursor]?: Query[Key] | null
}

export interface TesseraClient {
  /** One identification event: what Tessera saw for a `requestId` the browser sent you. */
  getEvent(requestId: string): Promise<Event>
  /** A visitor's history on your site, newest first; `before` takes the last page's `nextCursor`, null too. */
  getVisitor(visitorId: string, query?: PassedBack<VisitorHistoryQuery, 'before'>): Promise<VisitorHistory>
  /** Your site's events matching every filter given, newest first; `cursor` takes the last page's `nextCursor`, null too. */
  searchEvents(query?: PassedBack<EventSearchQuery, 'cursor'>): Promise<EventPage>
  /** Deletes the visitor's data on your site; succeeds even when there was none. */
  deleteVisitor(visitorId: string): Promise<void>
}

/** A typed client of Tessera's Server API (`/api/v1`), for Node.js 18+ and other fetch runtimes. */
export function createClient({
  endpoint,
  secretKey,
  timeout = 10_000,
  fetch: fetchImpl = globalThis.fetch,
}: ClientOptions): TesseraClient {
  // A missing environment variable should fail here, at start-up, not as a 401 on the first call.
  if (typeof secretKey !== 'string' || !secretKey.startsWith('sk_'))
    throw new TypeError('createClient: secretKey must be a secret API key (sk_…) from the console.')
  const base = new URL('/api/v1/', endpoint)

  async function call<Result>(
    method: 'GET' | 'DELETE',
    path: string,
    query: Record<string, string | number | null | undefined> = {},
  ): Promise<Result> {
    const url = new URL(path, base)
    for (const [name, value] of Object.entries(query)) {
      // A page's `nextCursor: null` passed back means "from the start", as leaving it out does.
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value))
    }
    let response: Response
    try {
      response = await fetchImpl(url, {
        method,
        headers: { authorization: `Bearer ${secretKey}`, accept: 'application/json' },
        signal: AbortSignal.timeout(timeout),
      })
    } catch (cause) {
      throw new TesseraApiError(0, 'network_error', `Tessera could not be reached at ${base.origin}.`, {
        cause,
      })
    }
    if (response.status === 204) return undefined as Result
    const body: unknown = await response.json().catch(() => undefined)
    if (!response.ok) {
      const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error
      if (typeof error?.code !== 'string' || typeof error.message !== 'string')
        throw new TesseraApiError(
          response.status,
          'unexpected_response',
          `${url.origin} answered HTTP ${response.status} without Tessera's error body: is endpoint Tessera's own address?`,
        )
      throw new TesseraApiError(response.status, error.code as ErrorCode, error.message)
    }
    return body as Result
  }

  // An ID is one path segment: '.', '..' or '' would resolve to another route of the API.
  const segment = (value: string) => {
    if (/^\.{0,2}$/.test(value)) throw new TesseraApiError(400, 'invalid_request', `Not an ID: "${value}".`)
    return encodeURIComponent(value)
  }
  return {
    getEvent: async (requestId) => call<Event>('GET', `events/${segment(requestId)}`),
    getVisitor: async (visitorId, query = {}) =>
      call<VisitorHistory>('GET', `visitors/${segment(visitorId)}`, { ...query }),
    searchEvents: (query = {}) => call<EventPage>('GET', 'events', { ...query }),
    deleteVisitor: async (visitorId) => call<void>('DELETE', `visitors/${segment(visitorId)}`),
  }
}
