// How long the console's answers and the search APIs take over HTTP: every answer asked once to
// warm it, then in rounds (one of each per round, so drift on the machine spreads over all),
// timed to the last byte of the body. The look-ups are also asked as an operator asks them, after
// the console sat idle for longer than node-postgres's default idle time-out (10 s), a round at a
// time, each round putting another look-up first. The server's webhook worker polls the database
// every second, so one connection stays in use whatever the pool's setting: these rows show what
// an operator meets after a pause, not the cost of a new connection (client.ts).

export interface Answer {
  name: string
  group: 'console' | 'search'
  /** Path and query; a function for answers that ask for something else each time. */
  path: string | (() => string)
  headers: Record<string, string>
  /** Also asked after a pause (PAUSE_MS), alone, in `pausedRounds` more rounds. */
  afterPause?: boolean
}

/** The console's idle time before each paused round: longer than a pool's default idle time-out. */
export const PAUSE_MS = 12_000

export interface Timed {
  name: string
  group: Answer['group']
  p50: number
  p95: number
  samples: number
  /** Size of the last answer's body. */
  bytes: number
}

/** The sample at rank p (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}

async function ask(url: string, answer: Answer): Promise<{ ms: number; bytes: number }> {
  const path = typeof answer.path === 'function' ? answer.path() : answer.path
  for (let attempt = 0; ; attempt++) {
    const started = performance.now()
    const response = await fetch(`${url}${path}`, { headers: answer.headers })
    const body = await response.arrayBuffer()
    const ms = performance.now() - started
    // The Server API's per-key limit: wait it out, the wait is not timed.
    if (response.status === 429 && attempt < 5) {
      await new Promise((resolve) => setTimeout(resolve, 5_000))
      continue
    }
    if (!response.ok)
      throw new Error(
        `${answer.name}: ${path} answered ${response.status} ${Buffer.from(body).toString().slice(0, 300)}`,
      )
    return { ms, bytes: body.byteLength }
  }
}

export async function timeAnswers(
  url: string,
  answers: Answer[],
  rounds: number,
  pausedRounds = 0,
): Promise<Timed[]> {
  for (const answer of answers) await ask(url, answer)
  const samples = answers.map(() => [] as number[])
  const bytes = answers.map(() => 0)
  for (let round = 0; round < rounds; round++) {
    for (const [at, answer] of answers.entries()) {
      const timed = await ask(url, answer)
      samples[at]?.push(timed.ms)
      bytes[at] = timed.bytes
    }
  }
  // Each paused round: the console idle, then each look-up once, the first of them straight after
  // the pause and the others behind it (each a statement of its own).
  const paused = answers
    .filter((answer) => answer.afterPause)
    .map((answer) => ({ ...answer, name: `${answer.name}, after ${PAUSE_MS / 1000} s idle` }))
  for (const _ of paused) {
    samples.push([])
    bytes.push(0)
  }
  for (let round = 0; round < pausedRounds && paused.length > 0; round++) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
    // Each round puts another look-up first.
    for (let turn = 0; turn < paused.length; turn++) {
      const which = (turn + round) % paused.length
      const timed = await ask(url, paused[which] as Answer)
      samples[answers.length + which]?.push(timed.ms)
      bytes[answers.length + which] = timed.bytes
    }
  }
  return [...answers, ...paused].map((answer, at) => ({
    name: answer.name,
    group: answer.group,
    p50: percentile(samples[at] ?? [], 50),
    p95: percentile(samples[at] ?? [], 95),
    samples: samples[at]?.length ?? 0,
    bytes: bytes[at] ?? 0,
  }))
}

/** What is looked up: the busiest visitor, its linked ID, the busiest address; a random visitor each time. */
export interface LookupKeys {
  visitor: string
  linkedId: string
  address: string
  /** The /24 of the address, as the network look-up takes it. */
  network: string
  randomVisitor: () => string
  /** A site's public key (the second busiest). */
  site: string
}

/** Every console answer and search bench:scale times, with a session cookie and a secret key. */
export function scaleAnswers({
  cookie,
  key,
  keys,
}: {
  cookie: string
  key: string
  keys: LookupKeys
}): Answer[] {
  const screen = (name: string, path: Answer['path'], afterPause = false): Answer => ({
    name,
    group: 'console',
    path,
    headers: { cookie },
    afterPause,
  })
  const search = (name: string, path: string): Answer => ({
    name,
    group: 'search',
    path,
    headers: { authorization: `Bearer ${key}` },
  })
  const q = encodeURIComponent
  const day = 86_400_000
  // A day in the middle of the retention period.
  const since = new Date(Date.now() - 41 * day).toISOString()
  const until = new Date(Date.now() - 40 * day).toISOString()
  return [
    screen('overview 24h', '/api/console/overview?range=24h'),
    screen('overview 7d', '/api/console/overview?range=7d'),
    screen('overview 30d', '/api/console/overview?range=30d'),
    screen('recent events', '/api/console/events'),
    screen('recent bot events', '/api/console/events?signal=bot'),
    screen('look-up: busy visitor', `/api/console/lookup?q=${q(keys.visitor)}`, true),
    screen('look-up: random visitor', () => `/api/console/lookup?q=${q(keys.randomVisitor())}`, true),
    screen('look-up: linked ID', `/api/console/lookup?q=${q(keys.linkedId)}`, true),
    screen('look-up: address', `/api/console/lookup?q=${q(keys.address)}`, true),
    screen('network look-up (/24)', `/api/console/network?q=${q(keys.network)}`),
    screen('sign-up decisions', '/api/console/decisions'),
    // The workbench's filters: a day and a score range, an address range, a linked ID, a signal, a
    // site, decisions by outcome and by email domain, the review queue.
    screen(
      'events: a day, score 10+',
      `/api/console/events?from=${since.slice(0, 10)}&to=${since.slice(0, 10)}&minScore=10`,
    ),
    screen('events: address range', `/api/console/events?ip=${q(keys.network)}`),
    screen('events: linked ID', `/api/console/events?linkedId=${q(keys.linkedId)}`),
    screen('events: Tor', '/api/console/events?signal=tor'),
    screen('events: one site', `/api/console/events?site=${q(keys.site)}`),
    screen('overview 30d: one site', `/api/console/overview?range=30d&site=${q(keys.site)}`),
    screen('decisions: denied', '/api/console/decisions?outcome=deny'),
    screen('decisions: @domain', `/api/console/decisions?email=${q('@mail-drop.example')}`),
    screen('decisions: one site', `/api/console/decisions?site=${q(keys.site)}`),
    screen('review queue', '/api/console/reviews'),
    search('v1 by visitorId', `/api/v1/events?visitorId=${q(keys.visitor)}`),
    search('v1 by linkedId', `/api/v1/events?linkedId=${q(keys.linkedId)}`),
    search('v1 by ip', `/api/v1/events?ip=${q(keys.address)}`),
    search('v1 by bot=bad', '/api/v1/events?bot=bad'),
    search('v1 by time range', `/api/v1/events?since=${q(since)}&until=${q(until)}`),
    search('v4 by visitor_id', `/v4/events?visitor_id=${q(keys.visitor)}`),
    search('v4 by linked_id', `/v4/events?linked_id=${q(keys.linkedId)}`),
    search('v4 by ip_address', `/v4/events?ip_address=${q(keys.address)}`),
    search('v4 by bot=bad', '/v4/events?bot=bad'),
    search('v4 by time range', `/v4/events?start=${Date.parse(since)}&end=${Date.parse(until)}`),
  ]
}
