// The floor for bench:identify: a bare node:http server doing the same validation and the same
// database work as POST /api/v1/identify, without Next.js. Runs in its own process (like
// Tessera's server), so it never shares an event loop with the load generator. It keeps the
// embedded database's tables as Tessera's server does (table-upkeep.ts), so the two differ only
// in what answers HTTP.
// On PostgreSQL (bench:scale) it takes the database's URL instead of a directory.
// Usage: tsx --conditions=react-server bench/support/floor-server.ts <dataDir | postgres url> <port>
import { createServer } from 'node:http'
import { IdentifyRequest } from '../../src/contracts/identify'
import { openDatabase } from '../../src/server/db/client'
import { runTableUpkeep } from '../../src/server/db/table-upkeep'
import { checkComponents } from '../../src/server/identification/check-components'
import { identifyVisitor } from '../../src/server/identification/identify-visitor'

const [target, port] = process.argv.slice(2)
if (!target || !port) throw new Error('usage: floor-server.ts <dataDir | postgres url> <port>')
const postgres = /^postgres(ql)?:\/\//.test(target)
const handle = await openDatabase(postgres ? { url: target } : { dataDir: target })
// PostgreSQL keeps its own tables (autovacuum); the embedded database needs them kept.
if (!postgres) runTableUpkeep(handle.db, { tended: () => undefined, failed: (error) => console.error(error) })

function forwardedFor(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header
  return value?.split(',').pop()?.trim() || undefined
}

const server = createServer(async (request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200).end('ok')
    return
  }
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  let body: unknown
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    response.writeHead(400).end()
    return
  }
  const parsed = IdentifyRequest.safeParse(body)
  if (!parsed.success) {
    response.writeHead(400).end()
    return
  }
  // The identify route's checks too: components held to their shapes, headers weighed against them.
  const { components, offShape } = checkComponents(parsed.data.components)
  const header = (name: string) => {
    const value = request.headers[name]
    return typeof value === 'string' ? value : null
  }
  const headers = {
    userAgent: header('user-agent'),
    acceptLanguage: header('accept-language'),
    clientHints: header('sec-ch-ua'),
    clientHintsMobile: header('sec-ch-ua-mobile'),
    clientHintsPlatform: header('sec-ch-ua-platform'),
  }
  try {
    const result = await identifyVisitor({
      db: handle.db,
      input: { ...parsed.data, components },
      // The bench passes each visitor's address as a load balancer would (Tessera trusts one proxy).
      context: {
        ip: forwardedFor(request.headers['x-forwarded-for']) ?? request.socket.remoteAddress ?? null,
        userAgent: headers.userAgent,
        evidence: { headers, agentProof: 'missing', offShape },
      },
    })
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result))
  } catch {
    response.writeHead(500).end()
  }
})
server.listen(Number(port), '127.0.0.1')

process.on('SIGTERM', () => {
  server.close()
  void handle.close().then(() => process.exit(0))
})
