import 'server-only'
import { processWide } from '../process-wide'

// libuv (1.45 and later) accepts one new connection per turn of the event loop, and under load
// each turn holds a batch of identifications (the embedded database runs on this thread): a
// flood's connections then wait in the kernel's backlog, and everyone's new connection (a health
// probe's) behind them, for minutes, while each batch lets one in. Measured: with 100 ms of work
// per turn, 50 simultaneous connections were accepted over 5.8 s, one per turn.

const accepted = () => processWide('acceptedConnections', () => ({ count: 0 }))

/** Counts a connection the front accepted (scripts/serve.mjs calls it on each). */
export function noteConnection(): void {
  accepted().count++
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Yields turns of the event loop until two in a row accept no new connection, or `maxMs` have
 * passed, so a batch of identifications starts only once the connections waiting to be accepted
 * are in and read: they are answered (most of a flood refused at once by admission control)
 * instead of queued behind it, and a client that sent its request and hung up at once is seen to
 * have gone before its request is taken. Bounded in time: under a flood each turn holds many
 * refusals, and the batch waiting here holds everyone else's identifications. On an idle server
 * this costs two turns (microseconds).
 */
export async function letConnectionsIn(maxMs = 10): Promise<void> {
  const deadline = performance.now() + maxMs
  let quiet = 0
  while (quiet < 2) {
    const before = accepted().count
    await nextTurn()
    quiet = accepted().count === before ? quiet + 1 : 0
    if (performance.now() >= deadline) return
  }
}
