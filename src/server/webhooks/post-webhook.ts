import 'server-only'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { pinnedLookup, RefusedTarget, type Resolve, resolveTarget, webhookUrlProblem } from './webhook-target'

/** How much of a receiver's answer is kept for the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024

/**
 * POSTs one delivery and returns the receiver's status and the start of its answer. The host is resolved once, every address
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
}): Promise<{ status: number; excerpt: string }> {
  // Rows written before URLs were checked at creation are checked here too.
  const problem = webhookUrlProblem(url, { allowPrivate })
  if (problem) throw new RefusedTarget(problem)
  const target = new URL(url)
  const address = await resolveTarget(target.hostname, { allowPrivate, resolve })
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((settle, fail) => {
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
        // The start of the answer, for the operator's delivery log; the rest is not read.
        const chunks: Buffer[] = []
        let read = 0
        const finish = () => {
          response.destroy()
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8')
          settle({ status: response.statusCode ?? 0, excerpt: excerpt.replace(/\uFFFD+$/, '') })
        }
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          read += chunk.length
          if (read >= RESPONSE_EXCERPT_BYTES) finish()
        })
        response.on('end', finish)
        response.on('error', finish)
      },
    )
    outgoing.on('error', fail)
    outgoing.end(body)
  })
}
