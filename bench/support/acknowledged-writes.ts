// The writes bench/durability.ts drives against a Tessera server, and how it reads them back.
// An acknowledgement is a 2xx answer received in full: the server said the write is done.
import { syntheticDevice } from '../../tests/support/synthetic-devices'

export interface IdentifyAck {
  kind: 'identify'
  requestId: string
  visitorId: string
}

export interface SignupAck {
  kind: 'signup'
  requestId: string
  ip: string
  email: string
  outcome: 'allow' | 'challenge' | 'deny'
}

export type Ack = IdentifyAck | SignupAck

/** Seeds and addresses that never repeat within one engine's run. */
export interface DeviceSource {
  next(): { seed: number; ip: string }
  /** A device identified before, sent again (a returning visitor). */
  returning(): { seed: number; ip: string } | undefined
}

export function createDeviceSource(): DeviceSource {
  let counter = 0
  const seen: { seed: number; ip: string }[] = []
  return {
    next() {
      counter++
      // One address per device: the sign-up limits per IP never come into play.
      const device = {
        seed: 1_000_000 + counter,
        ip: `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`,
      }
      seen.push(device)
      return device
    },
    returning() {
      return seen[Math.floor(Math.random() * seen.length)]
    },
  }
}

const PASSWORD = 'cobalt-meridian-lantern-77'

async function identify(url: string, device: { seed: number; ip: string }): Promise<IdentifyAck | undefined> {
  const response = await fetch(`${url}/api/v1/identify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': device.ip },
    body: JSON.stringify({
      components: syntheticDevice(device.seed),
      url: 'https://bench.example/durability',
    }),
  })
  const body: unknown = await response.json()
  if (
    !response.ok ||
    !isObject(body) ||
    typeof body.requestId !== 'string' ||
    typeof body.visitorId !== 'string'
  )
    return undefined
  return { kind: 'identify', requestId: body.requestId, visitorId: body.visitorId }
}

function signupHeaders(url: string, ip: string) {
  // What the sign-up page's own fetch sends (a same-origin JSON POST).
  return {
    'content-type': 'application/json',
    'x-forwarded-for': ip,
    origin: url,
    'sec-fetch-site': 'same-origin',
  }
}

function signupBody(requestId: string, email: string) {
  return JSON.stringify({
    requestId,
    fields: { name: 'Durability Bench', email, password: PASSWORD, terms: true },
  })
}

/** A new device identifies, then signs up with that identification's requestId. */
async function signUp(url: string, device: { seed: number; ip: string }, acks: Ack[]) {
  const identified = await identify(url, device)
  if (!identified) return
  acks.push(identified)
  const email = `durability-${device.seed}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const response = await fetch(`${url}/api/registration`, {
    method: 'POST',
    headers: signupHeaders(url, device.ip),
    body: signupBody(identified.requestId, email),
  })
  const body: unknown = await response.json()
  if (!response.ok || !isObject(body)) return
  const outcome = body.outcome
  if (outcome === 'allow' || outcome === 'challenge' || outcome === 'deny')
    acks.push({ kind: 'signup', requestId: identified.requestId, ip: device.ip, email, outcome })
}

/** A fresh server loads each route on first use: one sign-up and a few identifications, in turn. */
export async function warmUp(url: string, devices: DeviceSource): Promise<Ack[]> {
  const acks: Ack[] = []
  await signUp(url, devices.next(), acks)
  for (let count = 0; count < 4; count++) {
    const ack = await identify(url, devices.next())
    if (ack) acks.push(ack)
  }
  return acks
}

/**
 * Sends identifications (three new devices for one returning) and sign-ups from concurrent
 * workers, runs `kill` after `killAfterMs`, and returns every acknowledged write and how many
 * requests were in flight at the kill. Failed requests are simply not acknowledged.
 */
export async function driveWrites({
  url,
  devices,
  identifyWorkers,
  signupWorkers,
  killAfterMs,
  kill,
}: {
  url: string
  devices: DeviceSource
  identifyWorkers: number
  signupWorkers: number
  killAfterMs: number
  kill: () => Promise<void>
}): Promise<{ acks: Ack[]; inFlightAtKill: number }> {
  const acks: Ack[] = []
  let stopped = false
  let inFlight = 0
  const worker = async (step: () => Promise<void>) => {
    while (!stopped) {
      inFlight++
      try {
        await step()
      } catch {
        // Connection refused or reset: the server is gone.
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 20))
      } finally {
        inFlight--
      }
    }
  }
  const identifyStep = async () => {
    const device = Math.random() < 0.25 ? (devices.returning() ?? devices.next()) : devices.next()
    const ack = await identify(url, device)
    if (ack) acks.push(ack)
  }
  const workers = [
    ...Array.from({ length: identifyWorkers }, () => worker(identifyStep)),
    ...Array.from({ length: signupWorkers }, () => worker(() => signUp(url, devices.next(), acks))),
  ]
  await new Promise((resolve) => setTimeout(resolve, killAfterMs))
  const inFlightAtKill = inFlight
  await kill()
  stopped = true
  await Promise.all(workers)
  return { acks, inFlightAtKill }
}

/** A reader through the product's own APIs: the Server API for events, the console for accounts. */
export interface Reader {
  url: string
  apiKey: string
  sessionCookie: string
}

export async function signInToConsole(url: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/console/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ password }),
  })
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0]
  if (!response.ok || !cookie)
    throw new Error(`console sign-in failed: ${response.status} ${await response.text()}`)
  return cookie
}

/** fetch, waiting out the server's rate limits (429 with `retryAfter`) like a polite client. */
async function send(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, init)
    if (response.status !== 429 || attempt === 5) return response
    const body: unknown = await response.json()
    const details = isObject(body) && isObject(body.error) ? body.error.details : undefined
    const seconds = isObject(details) && typeof details.retryAfter === 'number' ? details.retryAfter : 1
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  }
}

/** Why an acknowledged write is missing, or undefined when it is there. */
export async function findMissing(reader: Reader, ack: Ack): Promise<string | undefined> {
  if (ack.kind === 'identify') {
    const response = await send(`${reader.url}/api/v1/events/${ack.requestId}`, {
      headers: { authorization: `Bearer ${reader.apiKey}` },
    })
    if (response.status === 404) return `event ${ack.requestId} not found`
    const body = await expectJson(response)
    return body.visitorId === ack.visitorId ? undefined : `event ${ack.requestId} has another visitor`
  }
  // The decision is stored if replaying its requestId is refused as already used.
  const replay = await send(`${reader.url}/api/registration`, {
    method: 'POST',
    headers: signupHeaders(reader.url, ack.ip),
    body: signupBody(ack.requestId, `replay-${ack.email}`),
  })
  const refusal: unknown = await replay.json()
  const code = isObject(refusal) && isObject(refusal.error) ? refusal.error.code : undefined
  if (code !== 'request_reused')
    return `sign-up decision ${ack.requestId} not found (replay answered ${replay.status} ${code})`
  if (ack.outcome !== 'allow') return undefined
  const lookup = await send(`${reader.url}/api/console/lookup?q=${encodeURIComponent(ack.email)}`, {
    headers: { cookie: reader.sessionCookie },
  })
  if (lookup.status === 404) return `account ${ack.email} not found`
  const panel = await expectJson(lookup)
  const accounts = Array.isArray(panel.accounts) ? panel.accounts : []
  return accounts.some((account) => isObject(account) && account.email === ack.email)
    ? undefined
    : `account ${ack.email} not found`
}

/** Every stored event since a moment (the Server API's search, 100 a page): request ID → visitor ID. */
async function listEvents(reader: Reader, since?: Date): Promise<Map<string, unknown>> {
  const stored = new Map<string, unknown>()
  let cursor: string | undefined
  do {
    const query = new URLSearchParams({ limit: '100' })
    if (since) query.set('since', since.toISOString())
    if (cursor) query.set('cursor', cursor)
    const page = await expectJson(
      await send(`${reader.url}/api/v1/events?${query}`, {
        headers: { authorization: `Bearer ${reader.apiKey}` },
      }),
    )
    for (const event of Array.isArray(page.events) ? page.events : [])
      if (isObject(event) && typeof event.requestId === 'string') stored.set(event.requestId, event.visitorId)
    cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined
  } while (cursor)
  return stored
}

/**
 * Checks every write; returns the reasons of the missing ones. Identifications are first looked
 * for in the event listing (one request per 100, within the API key's rate limit); any not found
 * there is asked for by its own URL before it counts as lost.
 */
export async function verifyWrites(
  reader: Reader,
  acks: Ack[],
  { since, concurrency = 8 }: { since?: Date; concurrency?: number } = {},
): Promise<string[]> {
  const stored = await listEvents(reader, since)
  const toCheck = acks.filter((ack) => ack.kind === 'signup' || stored.get(ack.requestId) !== ack.visitorId)
  const missing: string[] = []
  let next = 0
  const worker = async () => {
    while (next < toCheck.length) {
      const ack = toCheck[next++]
      if (!ack) continue
      const reason = await findMissing(reader, ack)
      if (reason) missing.push(reason)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return missing
}

/**
 * Proves the read-back can see a loss: a made-up event and a made-up account (on a real, used
 * sign-up) must both be reported missing.
 */
export async function assertReadBackDetectsLoss(reader: Reader, acks: Ack[]) {
  const signup = acks.find((ack): ack is SignupAck => ack.kind === 'signup' && ack.outcome === 'allow')
  const madeUp: Ack[] = [{ kind: 'identify', requestId: 'req_durability_made_up', visitorId: 'none' }]
  if (signup) madeUp.push({ ...signup, email: `made-up-${signup.email}` })
  const missing = await verifyWrites(reader, madeUp)
  if (missing.length !== madeUp.length)
    throw new Error(`The read-back found writes that were never made: ${missing.join('; ')}`)
}

async function expectJson(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json()
  if (!response.ok || !isObject(body))
    throw new Error(`read-back failed: ${response.status} ${JSON.stringify(body)}`)
  return body
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
