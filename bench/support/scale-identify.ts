// bench:scale's identify load, as bench:identify drives it (autocannon, 32 connections, half
// returning visitors and half new ones, each from its own address sent as X-Forwarded-For), spread
// over one or more servers. Returning visitors are loaded ones: their components are the very ones
// their stored events hold (scale-traffic.ts).
import { execFileSync } from 'node:child_process'
import autocannon from 'autocannon'
import { type CpuShare, cpuShare, sampleCpu } from './cpu-time'
import type { Traffic } from './scale-traffic'

const CONNECTIONS = 32
/**
 * How long a call may wait for its answer before it counts as failed. autocannon's default, 10 s,
 * is shorter than a cold cache's answers at 10 M events (p50 5.3 s one server, the floor's 32 calls
 * all failed there): an answer that slow, within a window, is measured as slow, not as an error. A
 * call still waiting when a window ends is counted as unanswered.
 */
const TIMEOUT_SECONDS = 120

export interface IdentifyRun {
  rps: number
  p50: number
  p99: number
  /** Failed calls, TIMEOUT_SECONDS without an answer included. */
  errors: number
  timeouts: number
  /** Answers that were not 2xx, by status (429: admission control refused a client's call). */
  refused: Record<string, number>
  /** Calls still waiting for their answer when the window ended (one per connection, as a rule). */
  unanswered: number
  /** Where the CPU went meanwhile (Linux), when the servers' PIDs were given. */
  cpu?: CpuShare
}

export type Bodies = () => { body: string; address: string }

/** One sequence for the whole bench: a new visitor is new once, whichever server it meets. */
export function identifyBodies(traffic: Traffic): Bodies {
  let counter = 0
  return () => {
    counter++
    const index =
      counter % 2 === 0 ? (counter * 7919) % traffic.visitors : traffic.loaded + 10_000_000 + counter
    const visitor = traffic.visitor(index)
    const components = traffic.components(visitor)
    return { body: JSON.stringify({ components, url: 'https://shop.example/' }), address: visitor.home.ip }
  }
}

function start(target: string, connections: number, next: Bodies, duration: number) {
  let instance: autocannon.Instance | undefined
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: target,
        connections,
        duration,
        timeout: TIMEOUT_SECONDS,
        method: 'POST',
        requests: [
          {
            setupRequest: (request: autocannon.Request) => {
              const { body, address } = next()
              const headers = {
                ...request.headers,
                'content-type': 'application/json',
                'x-forwarded-for': address,
              }
              return { ...request, body, headers }
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    )
  })
  return { stop: () => instance?.stop(), done }
}

/** Load split over `targets` (identify URLs) for `seconds`, or until `until` settles; figures summed. */
export async function driveIdentify(
  targets: string[],
  next: Bodies,
  {
    seconds,
    until,
    pids = [],
    postmaster,
  }: { seconds: number; until?: Promise<unknown>; pids?: number[]; postmaster?: number },
): Promise<IdentifyRun> {
  const before = sampleCpu(pids, postmaster)
  const runs = targets.map((target) =>
    start(target, Math.floor(CONNECTIONS / targets.length), next, until ? 3_600 : seconds),
  )
  if (until)
    await until.finally(() => {
      for (const run of runs) run.stop()
    })
  const results = await Promise.all(runs.map((run) => run.done))
  const answered = results.reduce((sum, result) => sum + result.requests.total, 0)
  const cpu = pids.length > 0 ? cpuShare(before, sampleCpu(pids, postmaster), answered) : undefined
  return {
    cpu,
    rps: results.reduce((sum, result) => sum + result.requests.total / Math.max(result.duration, 0.001), 0),
    // Each server's own percentiles: the worse of them (the load is split evenly).
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
    timeouts: results.reduce((sum, result) => sum + result.timeouts, 0),
    refused: refusedByStatus(results),
    // autocannon counts every call it sent (its types leave `sent` out): those neither answered nor failed.
    unanswered: results.reduce(
      (sum, result) =>
        sum +
        Math.max(
          0,
          ((result.requests as { sent?: number }).sent ?? 0) - result.requests.total - result.errors,
        ),
      0,
    ),
  }
}

/** Non-2xx answers of all the windows' runs, by status code. */
function refusedByStatus(results: autocannon.Result[]): Record<string, number> {
  const refused: Record<string, number> = {}
  for (const result of results)
    for (const [status, stats] of Object.entries(result.statusCodeStats ?? {}))
      if (!status.startsWith('2') && stats.count) refused[status] = (refused[status] ?? 0) + stats.count
  return refused
}

/**
 * A run's failures in words: errors, with those that timed out, and a window that answered nothing
 * (every connection has a call in flight when a window ends: that alone is no failure).
 */
export function failuresOf(run: IdentifyRun): string {
  return [
    String(run.errors),
    run.timeouts > 0 && `${run.timeouts} timed out`,
    ...Object.entries(run.refused).map(([status, count]) => `${count} answered ${status}`),
    run.rps === 0 &&
      run.unanswered > 0 &&
      `nothing answered within the window, ${run.unanswered} calls waiting`,
  ]
    .filter(Boolean)
    .join(', ')
}

/** Runs a process and all its threads on the given CPUs only (taskset), when taskset exists. */
export function pinToCpus(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
