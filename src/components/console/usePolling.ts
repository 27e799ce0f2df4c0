'use client'

import { useCallback, useEffect } from 'react'
import type { ConsoleEndpoint, ConsoleRequest } from '@/contracts/console-endpoints'
import { useLoaded } from '../useLoaded'
import { consoleUrl, readConsole } from './api'

/**
 * Loads a console endpoint and refreshes it in the background, without a page reload. The URL is
 * the question: another query (a filter, a page) is a new one, shown as loading.
 */
export function usePolling<Endpoint extends ConsoleEndpoint & `GET ${string}`>(
  endpoint: Endpoint,
  request: ConsoleRequest<Endpoint>,
  intervalMs = 10_000,
) {
  const url = consoleUrl(endpoint, request)
  const load = useCallback(() => readConsole(endpoint, url), [endpoint, url])
  const { loaded, reload } = useLoaded(load)

  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload()
    }, intervalMs)
    return () => clearInterval(timer)
  }, [reload, intervalMs])

  return { loaded, reload }
}
