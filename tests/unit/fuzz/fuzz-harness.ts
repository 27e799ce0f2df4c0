import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { type Database, getDb, queryRows } from '@/server/db/client'

/**
 * Property-based checks over every endpoint's input (issue #15, "keep it closed"): whatever arrives,
 * the answer is never a 5xx, comes within a time bound, and a refusal (4xx) leaves the database as it
 * was. `FUZZ_RUNS` (default 1,000 per endpoint) is raised by `npm run fuzz`.
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1_000)
/** Per request; generous because the suite shares two cores with the rest of `npm test`. */
const ANSWER_WITHIN_MS = 5_000
/** Vitest's time-out for one endpoint's property. */
export const FUZZ_TIMEOUT_MS = 120_000 * Math.max(1, FUZZ_RUNS / 1_000)

type RouteContext = { params: Promise<Record<string, string>> }
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>

/** A route handler whose params have a narrower type; the harness passes generated strings. */
export function route<Params>(
  handler: (request: Request, context: { params: Promise<Params> }) => Promise<Response>,
) {
  return handler as unknown as RouteHandler
}

export interface FuzzEndpoint {
  method: string
  /** The path without its query; `{name}` segments come from `params`. */
  path: string
  handler: RouteHandler
  /** A plausible valid body, which the harness then mutates field by field; absent: no body. */
  body?: fc.Arbitrary<Record<string, unknown>>
  /** Plausible query parameters (names from the route's query schema). */
  query?: fc.Arbitrary<Record<string, string>>
  /** Plausible route parameters. */
  params?: fc.Arbitrary<Record<string, string>>
  /** Credentials the route needs to reach its parsing (a session cookie, an API key). */
  headers?: () => Record<string, string>
  /** Headers generated per case (cookies, keys), on top of `headers`. */
  caseHeaders?: fc.Arbitrary<Record<string, string>>
}

// --- Values at the edges -----------------------------------------------------------------------

/** Marks where the serialised body gets a deeply nested array (JSON.stringify would overflow first). */
const deepMarker = (depth: number) => `@@deep:${depth}@@`

const edgeText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\ud800',
      'a\udc00b',
      '\udfff\ud800',
      'a\u0000b',
      '\u0000',
      '😀',
      '\u202e',
      '%00',
      '%E0%A4%A',
      '__proto__',
      'constructor',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '1e999',
      'null',
      '<script>alert(1)</script>',
      "' or 1=1 --",
      'https://127.0.0.1/',
    ),
  },
  // Long text is rare: it costs the most per case, and one size class is enough to find limits.
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 70_000 }).map((length) => 'x'.repeat(length)) },
)

const edgeNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1e308, -1e308, 2 ** 53 + 1, 5e-324, 1.5),
)

const edgeValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    edgeText,
    edgeNumber,
    fc.boolean(),
    fc.constant(null),
    fc.integer({ min: 20, max: 6_000 }).map(deepMarker),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(edgeText, tie('value'), { maxKeys: 4 }),
  ),
})).value

/** Mostly ordinary text, sometimes an edge: plausible bodies should often be accepted too. */
const plausibleText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: edgeText },
)

/** Values at the edges, for tests that build their own plausible bodies. */
export const edge = { text: edgeText, plausibleText, number: edgeNumber, value: edgeValue }

// --- Requests ----------------------------------------------------------------------------------

interface FuzzCase {
  headers?: Record<string, string>
  body?: string | Uint8Array
  contentType?: string
  query: string
  params: Record<string, string>
}

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json',
  'text/plain;charset=UTF-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
)

function serialise(body: unknown): string {
  return JSON.stringify(body).replace(/"@@deep:(\d+)@@"/g, (_, depth) => {
    const levels = Number(depth)
    return `${'['.repeat(levels)}${']'.repeat(levels)}`
  })
}

/** The plausible body with some fields replaced by edge values, and sometimes unknown fields. */
function mutatedBody(valid: fc.Arbitrary<Record<string, unknown>>) {
  return fc
    .tuple(
      valid,
      fc.array(fc.tuple(fc.nat(), edgeValue), { maxLength: 3 }),
      fc.dictionary(edgeText, edgeValue, { maxKeys: 2 }),
      fc.boolean(),
    )
    .map(([body, replacements, extra, addExtra]) => {
      const keys = Object.keys(body)
      const mutated: Record<string, unknown> = { ...body }
      for (const [index, value] of replacements) {
        const key = keys[index % Math.max(1, keys.length)]
        if (key !== undefined) mutated[key] = value
      }
      return addExtra ? { ...mutated, ...extra } : mutated
    })
}

const rawBody = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 500 }),
  fc.uint8Array({ maxLength: 500 }),
  fc.json({ maxDepth: 4 }),
  edgeValue.map(serialise),
  fc.constantFrom('', '{', '[]', 'null', '"x"', '{"a":1}{', '\ufeff{}', '{"__proto__":{"admin":true}}'),
  fc.integer({ min: 20, max: 6_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.integer({ min: 60_000, max: 200_000 }).map((length) => `{"a":"${'x'.repeat(length)}"}`),
)

/** URL-encodes text that may hold lone surrogates (encodeURIComponent would throw on them). */
const encode = (text: string) => encodeURIComponent(Buffer.from(text).toString())

/** Header values keep only what a header can carry (Headers throws on the rest, as a client would). */
export const headerSafe = (text: string) =>
  Buffer.from(text)
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '')

const rawQueryPart = fc.oneof(
  edgeText.map(encode),
  fc.constantFrom('%00', '%zz', '%E0%A4%A', '%C0%80', '%', '+', '&', '=', '%ED%A0%80', '[]', '%5B%5D'),
)

function queryString(plausible: fc.Arbitrary<Record<string, string>> | undefined) {
  const names: fc.Arbitrary<Record<string, string>> = plausible ?? fc.constant({})
  return fc.oneof(
    fc
      .tuple(names, fc.array(fc.tuple(fc.nat(), edgeText), { maxLength: 3 }))
      .map(([values, replacements]) => {
        const keys = Object.keys(values)
        const mutated = { ...values }
        for (const [index, value] of replacements) {
          const key = keys[index % Math.max(1, keys.length)]
          if (key !== undefined) mutated[key] = value
        }
        return Object.entries(mutated)
          .map(([key, value]) => `${encode(key)}=${encode(value)}`)
          .join('&')
      }),
    fc
      .array(fc.tuple(rawQueryPart, rawQueryPart), { maxLength: 4 })
      .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&')),
  )
}

function routeParams(plausible: fc.Arbitrary<Record<string, string>> | undefined) {
  if (!plausible) return fc.constant({})
  return fc.oneof(
    plausible,
    plausible.chain((values) =>
      fc.record(Object.fromEntries(Object.keys(values).map((key) => [key, edgeText]))),
    ),
  )
}

function cases(endpoint: FuzzEndpoint): fc.Arbitrary<FuzzCase> {
  const query = queryString(endpoint.query)
  const params = routeParams(endpoint.params)
  const headers = endpoint.caseHeaders ?? fc.constant({})
  if (!endpoint.body) return fc.record({ query, params, headers })
  const shaped = fc.record({
    body: mutatedBody(endpoint.body).map(serialise),
    contentType: fc.oneof(fc.constant('application/json'), contentTypes),
    query,
    params,
    headers,
  })
  const raw = fc.record({ body: rawBody, contentType: contentTypes, query, params, headers })
  return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: raw })
}

// --- The property --------------------------------------------------------------------------------

/**
 * What refused input must leave unchanged: every row of every table, counted by row-level triggers
 * into one transactional counter (a rolled-back write counts for nothing, as it changed nothing).
 * Bookkeeping of use is left out: rate_limits (counting refused attempts is its job) and a secret
 * key's last_used_at (a valid key was used, whatever the request then asked). Test databases only.
 */
const usageColumns: Record<string, string[]> = { api_keys: ['last_used_at'] }

export async function installChangeCounter(db: Database): Promise<void> {
  await db.execute(sql`create table if not exists fuzz_changes (n bigint not null)`)
  await db.execute(sql`insert into fuzz_changes select 0 where not exists (select 1 from fuzz_changes)`)
  await db.execute(
    sql`create or replace function fuzz_count_change() returns trigger language plpgsql as
        $$ begin update fuzz_changes set n = n + 1; return null; end $$`,
  )
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'
          and table_name not in ('fuzz_changes', 'rate_limits', '__drizzle_migrations')`,
  )
  for (const { name } of tables) {
    const skipped = usageColumns[name] ?? []
    const columns = (
      await queryRows<{ column: string }>(
        db,
        sql`select column_name as column from information_schema.columns
            where table_schema = 'public' and table_name = ${name} and is_generated = 'NEVER'`,
      )
    )
      .map(({ column }) => column)
      .filter((column) => !skipped.includes(column))
    const update =
      skipped.length > 0 ? `update of ${columns.map((column) => `"${column}"`).join(', ')}` : 'update'
    await db.execute(
      sql.raw(`create or replace trigger fuzz_count_change after insert or ${update} or delete on "${name}"
               for each row execute function fuzz_count_change()`),
    )
  }
}

const counted = new WeakSet<Database>()

export async function changeCount(db: Database): Promise<string> {
  const [row] = await queryRows<{ n: string }>(db, sql`select n::text from fuzz_changes`)
  return row?.n ?? 'none'
}

function toRequest(endpoint: FuzzEndpoint, fuzzCase: FuzzCase): Request {
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => encode(fuzzCase.params[name] ?? ''))
  const headers = new Headers({
    'x-forwarded-for': '198.51.100.77',
    ...endpoint.headers?.(),
    ...fuzzCase.headers,
  })
  if (fuzzCase.contentType) headers.set('content-type', fuzzCase.contentType)
  return new Request(`http://127.0.0.1:3000${path}${fuzzCase.query ? `?${fuzzCase.query}` : ''}`, {
    method: endpoint.method,
    headers,
    // A copy: Request takes a Uint8Array over a plain ArrayBuffer only.
    body: typeof fuzzCase.body === 'string' || !fuzzCase.body ? fuzzCase.body : new Uint8Array(fuzzCase.body),
  })
}

async function answerWithin(promise: Promise<Response>, label: string): Promise<Response> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${label}: no answer within ${ANSWER_WITHIN_MS} ms`)),
      ANSWER_WITHIN_MS,
    )
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Runs the endpoint's property FUZZ_RUNS times; tells how many answers fell in each status class. */
export async function fuzzEndpoint(db: Database, endpoint: FuzzEndpoint): Promise<Record<string, number>> {
  const label = `${endpoint.method} ${endpoint.path}`
  if (!counted.has(db)) {
    await installChangeCounter(db)
    counted.add(db)
  }
  const statuses: Record<string, number> = {}
  // One count per case: the count after a case is the count before the next (nothing else runs).
  let before = await changeCount(db)
  await fc.assert(
    fc.asyncProperty(cases(endpoint), async (fuzzCase) => {
      const response = await answerWithin(
        endpoint.handler(toRequest(endpoint, fuzzCase), { params: Promise.resolve(fuzzCase.params) }),
        label,
      )
      const text = await response.text()
      const status = `${String(response.status)[0]}xx`
      statuses[status] = (statuses[status] ?? 0) + 1
      expect(response.status, `${label}: ${text.slice(0, 300)}`).toBeLessThan(500)
      const after = await changeCount(db)
      const changed = after !== before
      before = after
      if (response.status >= 400) {
        expect(JSON.parse(text), label).toEqual({
          error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
        })
        expect(changed, `${label}: a refusal changed the database`).toBe(false)
      }
    }),
    { numRuns: FUZZ_RUNS, endOnFailure: true },
  )
  return statuses
}

/** One test per endpoint: never a 5xx, always in time, refusals change nothing (see fuzzEndpoint). */
export function itFuzzesEach(endpoints: readonly FuzzEndpoint[]): void {
  for (const endpoint of endpoints) {
    it(
      `${endpoint.method} ${endpoint.path}: never a 5xx, always in time, refusals change nothing`,
      async () => {
        const statuses = await fuzzEndpoint(await getDb(), endpoint)
        expect(Object.values(statuses).reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0)
      },
      FUZZ_TIMEOUT_MS,
    )
  }
}

/** Any of the values a test has stored so far (IDs, cursors), picked by index. */
export const known = (list: () => string[]) => fc.nat().map((index) => list()[index % list().length] ?? '')

/** A secret key's Authorization header: the valid key most of the time (to reach the parsing), else a wrong or malformed one. */
export const bearerMostlyOf = (key: () => string) =>
  fc
    .oneof(
      { weight: 4, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: edge.text.map((junk) => `sk_${junk}`) },
      { weight: 1, arbitrary: edge.text },
    )
    .map((junk) => ({ authorization: headerSafe(junk ? `Bearer ${junk}` : `Bearer ${key()}`) }))
