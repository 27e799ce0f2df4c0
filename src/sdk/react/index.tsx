'use client'

import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import type { IdentifyResult } from '../../agent'
import type { CacheLocation, CacheOptions } from './visitor-data-cache'
import { cacheKey, createVisitorDataClient, type VisitorDataClient } from './visitor-data-client'

export type { IdentifyResult, IdentifyResult as VisitorData } from '../../agent'
export type { CacheLocation, CacheOptions } from './visitor-data-cache'

const TesseraContext = createContext<VisitorDataClient | null>(null)

export interface TesseraProviderProps {
  /**
   * The public site key from the console. Only a page served by Tessera itself may leave it out
   * (its default site).
   */
  siteKey?: string
  /**
   * The Tessera server's origin, or your own when you proxy Tessera (first-party serving).
   * @default the page's origin
   */
  endpoint?: string
  /**
   * Path of the agent's API on `endpoint` (TESSERA_API_PREFIX, or where your proxy maps it).
   * @default '/api/v1'
   */
  apiPrefix?: string
  /**
   * Keep the last answer for the same options (max age at most 24 hours). A cached answer repeats
   * its requestId, which a back end refuses as reused: enable it for display, not for sign-ups.
   * @default 'none'
   */
  cache?: CacheLocation | CacheOptions
  /**
   * How long to wait for the collector frame (ms).
   * @default 10000
   */
  timeout?: number
  children?: ReactNode
}

/**
 * Gives the components below it `useVisitorData()`. Rendering it touches no browser global: the
 * agent loads on the first identification, in an effect or an event handler.
 */
export function TesseraProvider({
  siteKey,
  endpoint,
  apiPrefix,
  cache,
  timeout,
  children,
}: TesseraProviderProps) {
  const cacheLocation = typeof cache === 'string' ? cache : cache?.location
  const cacheMaxAge = typeof cache === 'string' ? undefined : cache?.maxAgeSeconds
  const client = useMemo(
    () =>
      createVisitorDataClient({
        siteKey,
        endpoint,
        apiPrefix,
        timeout,
        cache: { location: cacheLocation ?? 'none', maxAgeSeconds: cacheMaxAge },
      }),
    [siteKey, endpoint, apiPrefix, timeout, cacheLocation, cacheMaxAge],
  )
  return <TesseraContext.Provider value={client}>{children}</TesseraContext.Provider>
}

export interface UseVisitorDataOptions {
  /**
   * Identify as soon as the component mounts; otherwise only when `getData()` is called.
   * @default true
   */
  immediate?: boolean
  /** Your identifier for this visitor, e.g. an account ID, stored with the event. */
  linkedId?: string
  /** Your own data to store with the event. */
  tag?: Record<string, unknown>
  /**
   * Also return what the agent collected (`data.collection`).
   * @default false
   */
  withCollection?: boolean
}

export interface VisitorDataState {
  /** The last answer, kept while a new identification runs. */
  data: IdentifyResult | undefined
  isLoading: boolean
  error: Error | undefined
  /** Identifies now (or answers from the cache); resolves to the answer, rejects on failure. */
  getData(options?: { ignoreCache?: boolean }): Promise<IdentifyResult>
}

/** The visitor's identification, from the nearest <TesseraProvider>. */
export function useVisitorData({
  immediate = true,
  linkedId,
  tag,
  withCollection,
}: UseVisitorDataOptions = {}): VisitorDataState {
  const client = useContext(TesseraContext)
  if (!client) throw new Error('Tessera: useVisitorData() must be used inside a <TesseraProvider>.')
  // Options compared by value: a tag written inline is a new object on every render.
  const key = cacheKey({ linkedId, tag, withCollection })
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for linkedId, tag and withCollection
  const get = useMemo(() => ({ linkedId, tag, withCollection }), [key])
  const [state, setState] = useState<Omit<VisitorDataState, 'getData'>>({
    data: undefined,
    isLoading: immediate,
    error: undefined,
  })
  // Only the latest call may set the state: an older answer arriving late is dropped.
  const latestCall = useRef(0)

  const getData = useCallback(
    async ({ ignoreCache = false }: { ignoreCache?: boolean } = {}) => {
      const call = ++latestCall.current
      setState((previous) => ({ ...previous, isLoading: true, error: undefined }))
      try {
        const data = await client.getData({ ...get, ignoreCache })
        if (call === latestCall.current) setState({ data, isLoading: false, error: undefined })
        return data
      } catch (thrown) {
        const error = thrown instanceof Error ? thrown : new Error(String(thrown))
        if (call === latestCall.current) setState((previous) => ({ ...previous, isLoading: false, error }))
        throw error
      }
    },
    [client, get],
  )

  useEffect(() => {
    if (immediate) getData().catch(() => undefined) // the error is in the state
  }, [immediate, getData])

  return { ...state, getData }
}
