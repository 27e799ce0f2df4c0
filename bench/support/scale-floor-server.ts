// bench:identify's floor (floor-server.ts) over PostgreSQL: a bare node:http server doing the
// identify route's validation and database work (identifyVisitor), without Next.js, in its own
// process. floor-server.ts opens an embedded database directory only, hence this twin; the two
// handle a request alike.
// Usage: tsx --conditions=react-server bench/support/scale-floor-server.ts <postgres url> <port>
import { createServer } from 'node:http'
import { IdentifyRequest } from '../../src/contracts/identify'
import { openDatabase } from '../../src/server/db/client'
import { checkComponents } from '../../src/server/identification/check-components'
import { identifyVisitor } from '../../src/server/identification/identify-visitor'

const [url, port] = process.argv.slice(2)
if (!url || !port) throw new Error('usage: scale-floor-server.ts <postgres url> <port>')
const handle = await openDatabase({ url })

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
  const forwarded = header('x-forwarded-for')?.split(',').pop()?.trim()
  try {
    const result = await identifyVisitor({
      db: handle.db,
      input: { ...parsed.data, components },
      context: {
        ip: forwarded || request.socket.remoteAddress || null,
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
