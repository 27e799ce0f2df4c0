'use client'

import { useEffect, useState } from 'react'
import { collect } from '@/agent/collect'
import { collectWhenIdle, type HeadStart } from '@/agent/head-start'
import { identify } from '@/agent/identify'
import { type FrameMessage, isLoaderMessage } from '@/agent/messages'

/**
 * The collector inside the iframe. It answers only its parent window, only at the parent's exact
 * origin, and only when that origin is allowed for the site key; anything else is ignored.
 */
export function FrameCollector({
  siteKey,
  allowedOrigins,
}: {
  siteKey: string | null
  allowedOrigins: string[]
}) {
  const [status, setStatus] = useState('Waiting for the page that embeds this frame.')

  useEffect(() => {
    if (!siteKey) {
      setStatus('No known site key: this frame will not answer.')
      return
    }
    const allowed = new Set([...allowedOrigins, window.location.origin])
    // Started on the first hello from an allowed page that asks for it (LoadOptions.collectEarly):
    // its first get() finds the collection done or under way (see collectWhenIdle).
    let headStart: HeadStart | undefined
    const reply = (origin: string, message: FrameMessage) => window.parent.postMessage(message, origin)

    async function onMessage(event: MessageEvent) {
      if (event.source !== window.parent || window.parent === window) return
      if (!allowed.has(event.origin) || !isLoaderMessage(event.data)) return
      const message = event.data
      if (message.tessera === 'hello') {
        if (message.siteKey !== siteKey) return
        // Tessera's own CSP allows blob: workers: Intl's data loads off the main thread.
        if (message.collectEarly !== false)
          headStart ??= collectWhenIdle({ run: () => collect({ intlWorker: true }) })
        reply(event.origin, { tessera: 'ready' })
        return
      }
      try {
        const result = await identify({
          collection: headStart?.take(),
          endpoint: window.location.origin,
          siteKey: siteKey ?? undefined,
          url: message.url,
          tag: message.tag,
          linkedId: message.linkedId,
          withCollection: message.withCollection,
        })
        reply(event.origin, { tessera: 'result', id: message.id, result })
        setStatus('Identified.')
      } catch (error) {
        reply(event.origin, {
          tessera: 'error',
          id: message.id,
          message: error instanceof Error ? error.message : 'failed',
        })
      }
    }

    window.addEventListener('message', onMessage)
    return () => {
      window.removeEventListener('message', onMessage)
      headStart?.cancel()
    }
  }, [siteKey, allowedOrigins])

  return (
    <main>
      <h1 className="visually-hidden">Tessera collector</h1>
      <p className="visually-hidden" role="status">
        {status}
      </p>
    </main>
  )
}
