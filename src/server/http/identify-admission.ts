import 'server-only'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { getEnv } from '../env'
import { processWide } from '../process-wide'

// Admission control on POST /api/v1/identify, decided by the front (serve-node-route.ts) before a
// request's body is read, so a refusal costs little (about 0.3 ms of CPU). A burst of 7,500 calls from one
// host used to queue for minutes at 100% CPU while everyone else waited behind it.
// All of it is in-process, per server: with many app servers each applies it to what it receives.

export interface AdmissionLimits {
  /** Identify calls one client network (clientNetwork: an IPv4 address, an IPv6 /64) may make per window; 0: no limit. */
  ratePoints: number
  rateWindowSeconds: number
  /** Requests one client network may have in flight at once (being read, queued or identified). */
  perClientInFlight: number
  /** Busy: this many requests in flight in all… */
  busyInFlight: number
  /** …or the event loop this many ms late. A busy server serves each client one request at a time. */
  busyLagMs: number
  /** Full: this many in flight in all; every new request is refused until some are answered. */
  maxInFlight: number
}

/**
 * The stated defaults (README, "Admission control"); the rate is TESSERA_IDENTIFY_RATE_LIMIT. The
 * rate is counted per second, not per 10 s: a flood's admitted calls then spread over time instead
 * of arriving together at the start of each window and making every batch long at once
 * (bench:flood with new devices: others' p99 3.8x with 200 per 10 s).
 */
export const DEFAULT_LIMITS: AdmissionLimits = {
  ratePoints: 20,
  rateWindowSeconds: 1,
  perClientInFlight: 4,
  busyInFlight: 256,
  busyLagMs: 200,
  maxInFlight: 1_024,
}

export interface Refusal {
  status: 429 | 503
  code: 'rate_limited' | 'service_unavailable'
  message: string
  /** Seconds to wait (Retry-After). */
  retryAfter: number
}

export type Admission = { release(): void } | { refusal: Refusal }

const tooMany = (message: string, retryAfter = 1): { refusal: Refusal } => ({
  refusal: { status: 429, code: 'rate_limited', message, retryAfter },
})

/** Admission for one process: per-client budgets and in-flight caps, and shedding when busy. */
export function createAdmission(limits: AdmissionLimits, eventLoopLag: () => number) {
  const inFlight = new Map<string, number>()
  let total = 0
  const limiter =
    limits.ratePoints > 0
      ? new RateLimiterMemory({ points: limits.ratePoints, duration: limits.rateWindowSeconds })
      : undefined

  function hold(client: string) {
    inFlight.set(client, (inFlight.get(client) ?? 0) + 1)
    total++
  }

  function letGo(client: string) {
    const held = (inFlight.get(client) ?? 1) - 1
    if (held > 0) inFlight.set(client, held)
    else inFlight.delete(client)
    total--
  }

  return {
    /** Admits one request of `client` (a clientNetwork), or says why not; an admitted one must be released. */
    async admit(client: string): Promise<Admission> {
      const held = inFlight.get(client) ?? 0
      if (total >= limits.maxInFlight)
        return {
          refusal: {
            status: 503,
            code: 'service_unavailable',
            message: 'Tessera is at capacity; try again shortly.',
            retryAfter: 1,
          },
        }
      if (held >= limits.perClientInFlight)
        return tooMany('Too many identifications from this address at once; wait for the answers.')
      if (held > 0 && (total >= limits.busyInFlight || eventLoopLag() >= limits.busyLagMs))
        return tooMany('Tessera is busy; send one identification at a time.')
      // Held before the wait for the limiter, so concurrent arrivals count against each other.
      hold(client)
      if (limiter) {
        try {
          await limiter.consume(client)
        } catch (rejection) {
          letGo(client)
          if (!(rejection instanceof RateLimiterRes)) throw rejection
          const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))
          return tooMany(`Too many identifications from this address; try again in ${seconds} s.`, seconds)
        }
      }
      let released = false
      return {
        release() {
          if (released) return
          released = true
          letGo(client)
        },
      }
    },
    /** Requests admitted and not yet answered. */
    inFlight: () => total,
  }
}

/**
 * How late the event loop has been lately (ms): the worst delay over the last half second or so.
 * Embedded PostgreSQL (PGlite) runs on this thread, so a late loop is a saturated server.
 */
function eventLoopLag(): () => number {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  let previous = 0
  setInterval(() => {
    previous = histogram.max / 1e6
    histogram.reset()
  }, 500).unref()
  return () => Math.max(previous, histogram.max / 1e6)
}

/** This process's admission control, with the configured rate. */
export function identifyAdmission() {
  return processWide('identifyAdmission', () =>
    createAdmission({ ...DEFAULT_LIMITS, ratePoints: getEnv().TESSERA_IDENTIFY_RATE_LIMIT }, eventLoopLag()),
  )
}
