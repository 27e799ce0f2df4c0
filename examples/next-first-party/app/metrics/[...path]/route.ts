// Tessera, first-party: the browser calls /metrics/r/identify on this app's own origin, and this
// route passes the call on to Tessera (started with TESSERA_API_PREFIX=/metrics/r and
// TESSERA_TRUSTED_PROXIES=<this app's address>). A route rather than a `rewrites()` entry: Next.js
// rewrites to another host do not add X-Forwarded-For, so Tessera would see this server's address
// instead of the visitor's.
const tessera = process.env.TESSERA_URL ?? 'http://localhost:3000'

/**
 * Request headers Tessera reads; nothing else of the visitor's request is passed on. Tessera checks
 * the browser's own headers (User-Agent, Accept-Language, client hints) against what its agent
 * collected: a request without them looks like a script's.
 */
const passed = [
  'accept',
  'accept-language',
  'content-type',
  'cookie',
  'origin',
  'sec-ch-ua',
  'sec-ch-ua-mobile',
  'sec-ch-ua-platform',
  'sec-fetch-site',
  'user-agent',
]
/** Answer headers the browser needs; hop-by-hop and encoding headers are the fetch's own business. */
const returned = ['cache-control', 'content-type', 'set-cookie', 'vary']

async function forward(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const headers = new Headers()
  for (const name of passed) {
    const value = request.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  // `next start` sets X-Forwarded-For to the visitor's address when the request did not bring one;
  // behind your own load balancer it carries that balancer's chain. Tessera trusts it only from
  // this app's address.
  headers.set('x-forwarded-for', request.headers.get('x-forwarded-for') ?? '')
  headers.set('x-forwarded-host', url.host)
  const answer = await fetch(new URL(url.pathname + url.search, tessera), {
    method: request.method,
    headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer(),
    redirect: 'manual',
    cache: 'no-store',
  })
  const out = new Headers()
  for (const name of returned) {
    if (name === 'set-cookie') for (const cookie of answer.headers.getSetCookie()) out.append(name, cookie)
    else if (answer.headers.has(name)) out.set(name, answer.headers.get(name) ?? '')
  }
  return new Response(answer.body, { status: answer.status, headers: out })
}

export { forward as GET, forward as POST }
