import { type Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http'

export interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** Milliseconds from sending to the end of the answer. */
  elapsed: number
}

/**
 * One HTTP request over its own connection, with headers a browser or fetch() would not let a
 * test choose (Host) and from a chosen loopback address (127.0.0.2…: another client to the server).
 */
export function rawRequest(options: {
  port: number
  path: string
  method?: string
  headers?: OutgoingHttpHeaders
  body?: string
  localAddress?: string
  timeoutMs?: number
  /** A keep-alive agent whose connection is already open; a connection of its own by default. */
  agent?: Agent
}): Promise<RawAnswer> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port: options.port,
      path: options.path,
      method: options.method ?? 'GET',
      headers: {
        ...(options.body === undefined ? {} : { 'content-length': Buffer.byteLength(options.body) }),
        ...options.headers,
      },
      localAddress: options.agent ? undefined : options.localAddress,
      agent: options.agent ?? false,
      timeout: options.timeoutMs ?? 30_000,
    })
    outgoing.once('timeout', () => outgoing.destroy(new Error(`${options.path} timed out`)))
    outgoing.once('error', reject)
    outgoing.once('response', (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
      })
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          elapsed: performance.now() - started,
        }),
      )
    })
    outgoing.end(options.body)
  })
}

/**
 * Signs the operator in from a loopback address of its own (the sign-in budget is per address,
 * and the e2e specs share 127.0.0.1's); the session cookie's `name=value`.
 */
export async function signInFrom(port: number, localAddress: string, password: string): Promise<string> {
  const answer = await rawRequest({
    port,
    path: '/api/console/session',
    method: 'POST',
    localAddress,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  })
  const cookie = [answer.headers['set-cookie'] ?? []].flat()[0]?.split(';')[0]
  if (answer.status !== 200 || !cookie) throw new Error(`sign-in failed: ${answer.status} ${answer.body}`)
  return cookie
}
