import type { CollectResult } from './collect'

/**
 * The postMessage protocol between the loader (on the integrator's page) and /frame. Checked by
 * hand rather than with zod: the agent's size budget has no room for a validation library.
 */
export type LoaderMessage =
  /** collectEarly: the frame may start collecting now, for the first get() (LoadOptions). */
  | { tessera: 'hello'; siteKey: string; collectEarly?: boolean }
  | {
      tessera: 'get'
      id: string
      tag?: Record<string, unknown>
      linkedId?: string
      url: string
      withCollection?: boolean
    }

export type FrameMessage =
  | { tessera: 'ready' }
  /** Sent instead of the collector to a page the site does not allow (`origin`), or for an unknown site key (`site`). */
  | { tessera: 'refused'; reason: 'origin' | 'site' }
  | { tessera: 'result'; id: string; result: IdentifyResult }
  | { tessera: 'error'; id: string; message: string }

/** What `agent.get()` resolves to: the identify answer. */
export interface IdentifyResult {
  requestId: string
  visitorId: string
  visitorFound: boolean
  confidence: { score: number }
  firstSeenAt: string
  lastSeenAt: string
  signals: Record<string, { result: unknown; reasons: string[] }>
  suspectScore: number
  /** Present when the site has a sealing key: send it to your back end, which opens it with the key. */
  sealed_result?: string
  /** What the agent collected; only when asked for with `withCollection`. */
  collection?: CollectResult
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

export function isLoaderMessage(value: unknown): value is LoaderMessage {
  if (!isObject(value)) return false
  if (value.tessera === 'hello')
    return (
      typeof value.siteKey === 'string' &&
      (value.collectEarly === undefined || typeof value.collectEarly === 'boolean')
    )
  return (
    value.tessera === 'get' &&
    typeof value.id === 'string' &&
    typeof value.url === 'string' &&
    (value.linkedId === undefined || typeof value.linkedId === 'string') &&
    (value.withCollection === undefined || typeof value.withCollection === 'boolean') &&
    (value.tag === undefined || isObject(value.tag))
  )
}

export function isFrameMessage(value: unknown): value is FrameMessage {
  if (!isObject(value)) return false
  if (value.tessera === 'ready') return true
  if (value.tessera === 'refused') return value.reason === 'origin' || value.reason === 'site'
  if (value.tessera === 'result')
    return (
      typeof value.id === 'string' && isObject(value.result) && typeof value.result.visitorId === 'string'
    )
  return value.tessera === 'error' && typeof value.id === 'string' && typeof value.message === 'string'
}
