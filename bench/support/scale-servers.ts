// The processes bench:scale runs over its PostgreSQL: Tessera's production server (as many as
// asked, one port each) and bench:identify's floor; and the operator's first steps in the console.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { type DatabaseHandle, queryRows } from '../../src/server/db/client'
import { type RunningServer, startTesseraServer } from '../../tests/support/tessera-server'

/** Registers what to undo at the end of the bench. */
export type Defer = (cleanup: () => Promise<void> | void) => void

export function startAppServer({
  name,
  url,
  work,
  port,
  password,
  defer,
}: {
  name: string
  /** PostgreSQL's URL; none: the embedded database in the server's own directory (`work`/`name`/db). */
  url: string | undefined
  work: string
  port: number
  password: string
  defer: Defer
}): Promise<RunningServer> {
  return startTesseraServer({
    port,
    dataDir: path.join(work, name),
    env: {
      ...(url && { DATABASE_URL: url }),
      TESSERA_ADMIN_PASSWORD: password,
      TESSERA_LOG_LEVEL: 'warn',
      // The bench is the load balancer: it sends each visitor's address as X-Forwarded-For.
      TESSERA_TRUSTED_PROXIES: '1',
      // The servers' own retention (at start, then hourly) stays out of the measurements; the
      // bench runs a pass itself.
      TESSERA_RETENTION_DAYS: '3650',
    },
  }).then((server) => {
    defer(() => server.stop())
    return server
  })
}

/** bench:identify's floor over the same database (floor-server.ts), healthy; its PID. */
export async function startFloor({ url, port, defer }: { url: string; port: number; defer: Defer }) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=react-server', 'bench/support/floor-server.ts', url, String(port)],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  defer(stop)
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('The floor server exited during start-up')
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return { pid: child.pid, stop }
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  throw new Error('The floor server did not become healthy')
}

/** Waits until no other session runs a statement (a server's start-up work), at most a minute. */
export async function waitQuiet(handle: DatabaseHandle) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const [row] = await queryRows<{ busy: number }>(
      handle.db,
      sql`select count(*)::int as busy from pg_stat_activity
          where state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    )
    if ((row?.busy ?? 0) === 0) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

async function consoleJson(url: string, cookie: string, pathname: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${url}${pathname}`, {
    method: body ? 'POST' : 'GET',
    headers: { cookie, origin: url, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** A secret key of the default site, made through the console as an operator would. */
export async function createKey(url: string, cookie: string): Promise<string> {
  const list = (await consoleJson(url, cookie, '/api/console/sites')) as {
    sites: { id: string; isDefault: boolean }[]
  }
  const site = list.sites.find((entry) => entry.isDefault)
  if (!site) throw new Error('no default site')
  const body = { siteId: site.id, name: 'bench:scale' }
  const created = (await consoleJson(url, cookie, '/api/console/keys', body)) as { key: string }
  return created.key
}
