import type { IdentifyResult } from '../../agent'

/** Where the last answer is kept: this page's memory, the tab's sessionStorage, or nowhere. */
export type CacheLocation = 'memory' | 'sessionStorage' | 'none'

export interface CacheOptions {
  /** @default 'none' */
  location: CacheLocation
  /**
   * How long a cached answer is served, in seconds; at most 86 400 (24 hours).
   * @default 3600
   */
  maxAgeSeconds?: number
}

export interface VisitorDataCache {
  read(key: string): IdentifyResult | undefined
  write(key: string, data: IdentifyResult): void
}

export const MAX_CACHE_AGE_SECONDS = 24 * 60 * 60
const DEFAULT_CACHE_AGE_SECONDS = 60 * 60
const STORAGE_PREFIX = 'tessera:visitor-data:'

interface Entry {
  at: number
  data: IdentifyResult
}

/** The cache a provider was configured with. Creating it touches no browser global. */
export function createVisitorDataCache(
  options: CacheLocation | CacheOptions | undefined,
  now: () => number = Date.now,
): VisitorDataCache {
  const { location, maxAgeSeconds = DEFAULT_CACHE_AGE_SECONDS } =
    typeof options === 'string' ? { location: options } : (options ?? { location: 'none' as const })
  const maxAgeMs = Math.min(Math.max(maxAgeSeconds, 0), MAX_CACHE_AGE_SECONDS) * 1000
  const fresh = (entry: Entry | undefined) =>
    entry && now() - entry.at >= 0 && now() - entry.at < maxAgeMs ? entry.data : undefined

  if (location === 'memory') {
    const entries = new Map<string, Entry>()
    return {
      read: (key) => fresh(entries.get(key)),
      write: (key, data) => void entries.set(key, { at: now(), data }),
    }
  }
  if (location === 'sessionStorage') {
    // Storage can be missing or refuse (private modes, quotas): a cache miss, never an error.
    return {
      read(key) {
        try {
          const stored = window.sessionStorage.getItem(STORAGE_PREFIX + key)
          return stored ? fresh(JSON.parse(stored) as Entry) : undefined
        } catch {
          return undefined
        }
      },
      write(key, data) {
        try {
          window.sessionStorage.setItem(STORAGE_PREFIX + key, JSON.stringify({ at: now(), data }))
        } catch {}
      },
    }
  }
  return { read: () => undefined, write: () => {} }
}
