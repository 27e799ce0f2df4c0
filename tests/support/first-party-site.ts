import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import path from 'node:path'
import { build } from 'esbuild'

/** The address the proxy connects to Tessera from: not the browser's (127.0.0.1). */
export const PROXY_ADDRESS = '127.0.0.2'

export interface FirstPartySite {
  origin: string
  close(): Promise<void>
}

/**
 * An integrator's site on its own origin, in the shape of examples/next-first-party: its pages,
 * its script, and Tessera proxied under /metrics as that example's route does it (the path kept,
 * Host set to Tessera's, X-Forwarded-Host added, X-Forwarded-For set to the client's address
 * unless the client sent one, as `next start` does). A node:http server rather than a second
 * Next.js build, to keep CI fast.
 *
 * GET /?mode=first-party (default): the React SDK calls /metrics/r, this origin.
 * GET /?mode=frame: the React SDK talks to Tessera's own origin through /frame.
 * &csp=strict: the page carries a strict Content-Security-Policy.
 */
export async function startFirstPartySite({
  port,
  tessera,
  siteKey,
}: {
  port: number
  tessera: string
  siteKey: string
}): Promise<FirstPartySite> {
  const origin = `http://localhost:${port}`
  const app = await bundleApp()
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin)
    if (url.pathname.startsWith('/metrics/')) return proxy(request, response, tessera)
    if (url.pathname === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' })
      return void response.end(app)
    }
    if (url.pathname !== '/') return void response.writeHead(404).end()
    const frame = url.searchParams.get('mode') === 'frame'
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' }
    if (url.searchParams.get('csp') === 'strict') headers['content-security-policy'] = strictPolicy(tessera)
    response.writeHead(200, headers)
    response.end(`<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Shop</title></head>
  <body>
    <h1>Shop</h1>
    <div id="root" data-site-key="${siteKey}" data-endpoint="${frame ? tessera : ''}" data-api-prefix="${frame ? '' : '/metrics/r'}"></div>
    <script src="/app.js"></script>
  </body>
</html>`)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    origin,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * The README's strict policy: scripts and connections only to this origin, Tessera only as a frame
 * (the /frame mode), no inline script, no eval, no blob workers; styles only from files too.
 */
export function strictPolicy(tessera: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    `frame-src ${tessera}`,
    "style-src 'self'",
    "img-src 'self'",
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ')
}

function proxy(request: IncomingMessage, response: import('node:http').ServerResponse, tessera: string) {
  const target = new URL(tessera)
  const upstream = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      localAddress: PROXY_ADDRESS,
      method: request.method,
      path: request.url,
      headers: {
        ...request.headers,
        host: target.host,
        'x-forwarded-host': request.headers.host ?? '',
        'x-forwarded-for': request.headers['x-forwarded-for'] ?? request.socket.remoteAddress ?? '',
      },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    },
  )
  upstream.on('error', () => response.writeHead(502).end())
  request.pipe(upstream)
}

async function bundleApp(): Promise<string> {
  const result = await build({
    entryPoints: [path.resolve('tests/support/first-party-app.tsx')],
    bundle: true,
    format: 'iife',
    jsx: 'automatic',
    minify: true,
    write: false,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: { 'tessera/react': path.resolve('dist/react/index.mjs') },
  })
  const [file] = result.outputFiles
  if (!file) throw new Error('the first-party app did not build')
  return file.text
}
