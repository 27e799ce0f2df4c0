import { type Agent, type GetOptions, type IdentifyResult, type LoadOptions, load } from '../../agent'
import { type CacheLocation, type CacheOptions, createVisitorDataCache } from './visitor-data-cache'

export interface VisitorDataClientOptions extends LoadOptions {
  /** Keep the last answer for the same options: `'memory'`, `'sessionStorage'` or `'none'`. */
  cache?: CacheLocation | CacheOptions
}

export interface GetDataOptions extends GetOptions {
  /** Identify again even when a cached answer is fresh. */
  ignoreCache?: boolean
}

export interface VisitorDataClient {
  getData(options?: GetDataOptions): Promise<IdentifyResult>
}

/**
 * What a <TesseraProvider> holds: the agent, loaded on first use; identifications one at a time,
 * calls with the same options sharing the one in flight; and the cache. Creating it touches no
 * browser global, so it is safe during server rendering.
 */
export function createVisitorDataClient(
  options: VisitorDataClientOptions,
  loadAgent: (options: LoadOptions) => Promise<Agent> = load,
): VisitorDataClient {
  const { cache: cacheOptions, ...loadOptions } = options
  const cache = createVisitorDataCache(cacheOptions)
  const pending = new Map<string, Promise<IdentifyResult>>()
  let agent: Promise<Agent> | undefined
  // Each identification starts once the one before it has settled.
  let queue: Promise<unknown> = Promise.resolve()

  function getAgent(): Promise<Agent> {
    agent ??= loadAgent(loadOptions).catch((error: unknown) => {
      agent = undefined // a later call tries again
      throw error
    })
    return agent
  }

  return {
    getData({ ignoreCache = false, ...get } = {}) {
      const key = cacheKey(get)
      const shared = pending.get(key)
      if (shared) return shared
      if (!ignoreCache) {
        const cached = cache.read(key)
        if (cached) return Promise.resolve(cached)
      }
      const run = queue
        .catch(() => undefined)
        .then(async () => {
          const data = await (await getAgent()).get(get)
          cache.write(key, data)
          return data
        })
      queue = run
      pending.set(key, run)
      const forget = () => pending.get(key) === run && pending.delete(key)
      run.then(forget, forget)
      return run
    },
  }
}

/** One key per distinct set of options: an answer tagged for one caller is not another's. */
export function cacheKey({ linkedId, tag, withCollection }: GetOptions): string {
  return JSON.stringify([linkedId ?? null, tag ?? null, withCollection === true])
}
