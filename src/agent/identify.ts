import { type CollectResult, collect } from './collect'
import type { IdentifyResult } from './messages'

const TOKEN_KEY = '_tessera_vid'

export interface IdentifyRequestOptions {
  endpoint: string
  /** Path of the agent's API on `endpoint` (TESSERA_API_PREFIX, or where a proxy maps it). */
  apiPrefix?: string
  /** A collection already made (or under way) on this page, to send instead of collecting again. */
  collection?: CollectResult | Promise<CollectResult>
  siteKey?: string
  url: string
  tag?: Record<string, unknown>
  linkedId?: string
  /** Also return the collection itself (every component with its value and duration). */
  withCollection?: boolean
}

/** The path of the agent's API when none is configured. */
export const DEFAULT_API_PREFIX = '/api/v1'

/** The stored visitor token: localStorage first, then the IndexedDB copy. */
async function readToken(): Promise<string | undefined> {
  try {
    const stored = window.localStorage.getItem(TOKEN_KEY)
    if (stored) return stored
  } catch {}
  return readIndexedDb()
}

function openStore(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('tessera', 1)
    request.onupgradeneeded = () => request.result.createObjectStore('kv')
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

async function readIndexedDb(): Promise<string | undefined> {
  try {
    const db = await openStore()
    return await new Promise((resolve) => {
      const request = db.transaction('kv').objectStore('kv').get(TOKEN_KEY)
      request.onsuccess = () => resolve(typeof request.result === 'string' ? request.result : undefined)
      request.onerror = () => resolve(undefined)
    })
  } catch {
    return undefined
  }
}

async function writeToken(token: string): Promise<void> {
  try {
    window.localStorage.setItem(TOKEN_KEY, token)
  } catch {}
  try {
    const db = await openStore()
    db.transaction('kv', 'readwrite').objectStore('kv').put(token, TOKEN_KEY)
  } catch {}
}

/** Forgets the stored copies of the visitor token (the server clears its cookie itself). */
export async function clearStoredToken(): Promise<void> {
  try {
    window.localStorage.removeItem(TOKEN_KEY)
  } catch {}
  try {
    const db = await openStore()
    db.transaction('kv', 'readwrite').objectStore('kv').delete(TOKEN_KEY)
  } catch {}
}

/**
 * A fresh nonce from the server, the agent's proof that it ran; asked for at each identification
 * (a nonce lives two minutes) while the sources run, so it costs no time. Without one the
 * identification still happens, marked as unproven.
 */
async function fetchNonce(base: string, siteKey: string | undefined): Promise<string | undefined> {
  try {
    const query = siteKey ? `?siteKey=${encodeURIComponent(siteKey)}` : ''
    const response = await fetch(`${base}/nonce${query}`, { cache: 'no-store' })
    const body = response.ok ? await response.json() : undefined
    return typeof body?.nonce === 'string' ? body.nonce : undefined
  } catch {
    return undefined
  }
}

/** Collects the signals and asks the Tessera server who this browser is. */
export async function identify(options: IdentifyRequestOptions): Promise<IdentifyResult> {
  const apiPrefix = (options.apiPrefix ?? DEFAULT_API_PREFIX).replace(/\/+$/, '')
  const [collection, storedToken, nonce] = await Promise.all([
    options.collection ?? collect(),
    readToken(),
    fetchNonce(`${options.endpoint}${apiPrefix}`, options.siteKey),
  ])
  const { components } = collection
  const response = await fetch(`${options.endpoint}${apiPrefix}/identify`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      components,
      storedToken,
      siteKey: options.siteKey,
      url: options.url,
      tag: options.tag,
      linkedId: options.linkedId,
      nonce,
    }),
  })
  const body = await response.json().catch(() => undefined)
  if (!response.ok) {
    // No Tessera error body: something else answered, most often a wrong apiPrefix or proxy route.
    const where = `${options.endpoint}${apiPrefix}/identify`
    throw new Error(
      `Tessera: ${body?.error?.message ?? `identification failed (HTTP ${response.status} from ${where}: check endpoint, apiPrefix and your proxy route)`}`,
    )
  }
  const { storedToken: token, ...result } = body as IdentifyResult & { storedToken?: string }
  if (token) await writeToken(token)
  return options.withCollection ? { ...result, collection } : result
}
