import 'server-only'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

// What the front (serve-node-route.ts) does with a node:http connection besides routing: the body
// as a web stream, whether the connection survives the answer, lingering before closing, and
// noticing that the client has hung up.

/**
 * Aborts when the client hangs up before its answer: its FIN (Node.js's HTTP server answers
 * nothing after it: no half-open HTTP), or the connection closing. Identification drops a request
 * still waiting for its batch then, rather than storing it for nobody.
 */
export function hangUpSignal(request: IncomingMessage, response: ServerResponse): AbortSignal {
  const controller = new AbortController()
  const socket = request.socket
  const hungUp = () => {
    if (!response.writableFinished) controller.abort()
  }
  socket.once('end', hungUp)
  response.once('close', () => {
    socket.off('end', hungUp)
    hungUp()
  })
  return controller.signal
}

/** Most unread body bytes drained to keep a connection alive; beyond, it is closed instead. */
const MAX_DRAIN_BYTES = 64 * 1024
/** How long a closing connection still reads (and drops) what its client sends. */
const LINGER_MS = 2_000

/**
 * The request body as a web stream. Cancelling it (parseRequest does past the size limit) only
 * stops reading: Readable.toWeb would destroy the socket, and the 413 with it.
 */
export function streamBody(request: IncomingMessage) {
  let reading = true
  let cancelled = false
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        request.on('data', (chunk: Buffer) => {
          if (!reading) return
          controller.enqueue(chunk)
          if ((controller.desiredSize ?? 0) <= 0) request.pause()
        })
        request.once('end', () => reading && controller.close())
        request.once('error', (error) => reading && controller.error(error))
      },
      pull: () => void request.resume(),
      cancel: () => {
        reading = false
        cancelled = true
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
  return {
    stream,
    /** Stops passing data on, drops the rest as it arrives; tells whether the handler gave up reading. */
    stop(): boolean {
      reading = false
      request.resume()
      return cancelled
    },
  }
}

/**
 * Marks an answer `Connection: close` (and lingers) unless the connection can serve another
 * request: its body was read, or what is left of it is small (Node.js reads and drops it).
 */
export function closeUnlessKept(
  request: IncomingMessage,
  outgoing: Record<string, string | string[] | number>,
  cancelled: boolean,
): void {
  if (keepConnection(request, cancelled)) return
  outgoing.connection = 'close'
  lingerBeforeClosing(request.socket)
}

/** Whether the connection can serve another request: its body was read, or what is left is small. */
function keepConnection(request: IncomingMessage, cancelled: boolean): boolean {
  if (request.complete) return true
  const declared = Number(request.headers['content-length'])
  return !cancelled && Number.isFinite(declared) && declared <= MAX_DRAIN_BYTES
}

/**
 * After `Connection: close`, Node.js closes the socket as soon as the answer is written; body bytes
 * still arriving then make the kernel reset the connection, which can cut the answer off at the
 * client. Instead: FIN after the answer, keep dropping what arrives, close when the client does.
 */
function lingerBeforeClosing(socket: Socket) {
  socket.destroySoon = () => {
    socket.end()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
    socket.once('end', () =>
      socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()),
    )
  }
}
