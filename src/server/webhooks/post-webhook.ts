import 'server-only'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { pinnedLookup, RefusedTarget, type Resolve, resolveTarget, webhookUrlProblem } from './webhook-target'

/**
 * POSTs one delivery and returns the receiver's status. The host is resolved once, every address
 * checked, and the connection made to the checked address (TLS still verifies the host name);
 * redirects are not followed. Throws RefusedTarget before any connection to a refused target.
 */
export async function postWebhook({
  url,
  headers,
  body,
  timeoutMs,
  allowPrivate,
  resolve,
}: {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
  allowPrivate: boolean
  resolve?: Resolve
}): Promise<number> {
  // Rows written before URLs were checked at creation are checked here too.
  const problem = webhookUrlProblem(url, { allowPrivate })
  if (problem) throw new RefusedTarget(problem)
  const target = new URL(url)
  const address = await resolveTarget(target.hostname, { allowPrivate, resolve })
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<number>((settle, fail) => {
    const outgoing = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(address),
        // A fresh connection per delivery: a pooled one could have been made to another address.
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        settle(response.statusCode ?? 0)
        // Only the status matters; the body is not read.
        response.destroy()
      },
    )
    outgoing.on('error', fail)
    outgoing.end(body)
  })
}
