import 'server-only'
import { sql } from 'drizzle-orm'
import type { IdentifyRequest, IdentifyResponse } from '@/contracts/identify'
import type { BrowserSignals, SmartSignals } from '@/contracts/signals'
import { type Database, isDeadlock } from '../db/client'
import { ensureComingEventPartitions, isMissingDayTable } from '../db/event-partitions'
import { letConnectionsIn } from '../http/connection-turns'
import { HttpError } from '../http/errors'
import { lookUpAddress } from '../network/network-data'
import { processWide } from '../process-wide'
import { decideBatch, type IdentifyContext, type PreparedJob } from './batch-decision'
import { type BatchOutcome, createBatchQueue } from './batch-queue'
import { readBatch } from './batch-read'
import { VisitorVanished, writeBatch } from './batch-write'
import { blockingKeys } from './blocking-keys'
import { SnapshotVanished } from './component-snapshots'
import { profileComponents } from './fingerprint-profile'
import { getIdentitySecret } from './identity-secret'
import { placeOf } from './network-of'
import { signVisitorToken, verifyVisitorToken } from './persistent-token'
import { applyCommittedCounts } from './population'

export type { IdentifyContext } from './batch-decision'

interface IdentifyJob {
  input: IdentifyRequest
  context: IdentifyContext
}

/**
 * Identifies the device behind one agent payload and stores the event, in two database round
 * trips: one read (token visitor + blocking-key candidates), one write (a single statement that
 * also queues the site's webhook deliveries, so an acknowledged event is never without them).
 *
 * Under load, requests share these two statements in batches (see batch-queue.ts). Nobody is
 * answered before their batch's write has committed.
 */
export function identifyVisitor({
  db,
  input,
  context,
  signal,
}: {
  db: Database
  input: IdentifyRequest
  context: IdentifyContext
  /** The client's connection: once it closes, a request still waiting for its batch is dropped. */
  signal?: AbortSignal
}): Promise<IdentifyResponse> {
  return queueFor(db).submit({ input, context }, signal)
}

type IdentifyQueue = ReturnType<typeof createBatchQueue<IdentifyJob, IdentifyResponse>>

function queueFor(db: Database): IdentifyQueue {
  // One per process, like the database: two queues on one database would run batches that miss
  // each other's writes.
  const queues = processWide('identifyQueues', () => new WeakMap<Database, IdentifyQueue>())
  let queue = queues.get(db)
  if (!queue) {
    queue = createBatchQueue<IdentifyJob, IdentifyResponse>((jobs) => identifyBatch(db, jobs), {
      maxBatch: 64,
      // New connections first: the event loop accepts one per turn (connection-turns.ts).
      beforeBatch: () => letConnectionsIn(),
      // A backstop: the front's admission control (identify-admission.ts) sheds load long before.
      maxQueued: 2_000,
      maxBlockedPerKey: 100,
      tooBusy: () =>
        new HttpError('service_unavailable', 'Too many identifications are waiting; try again shortly.', {
          retryAfter: 1,
        }),
      tooFast: () =>
        new HttpError(
          'rate_limited',
          'This device sends identifications faster than they can be stored; slow down.',
          { retryAfter: 1 },
        ),
      // Nobody reads this answer: the client has gone. A 4xx-style HttpError keeps it out of the error log.
      gone: () => new HttpError('service_unavailable', 'The client closed the connection before its turn.'),
    })
    queues.set(db, queue)
  }
  return queue
}

/**
 * Identifies a batch of requests: one read for every request's candidates, matching in memory,
 * one write for every event. Answers in request order. A request whose visitor, or whose exact
 * device (the same blocking keys: the same device's first visit twice), an earlier request of
 * the batch already claimed is answered with `blockedBy`: it runs again once that one is stored,
 * as if the two had come one after the other.
 */

async function identifyBatch(db: Database, jobs: IdentifyJob[]): Promise<BatchOutcome<IdentifyResponse>[]> {
  const secret = await getIdentitySecret(db)
  const now = new Date()
  const prepared: PreparedJob[] = jobs.map(({ input, context }) => {
    const profile = profileComponents(input.components)
    const address = context.ip ? lookUpAddress(context.ip) : null
    return {
      input,
      context,
      profile,
      address,
      place: placeOf(context.ip, address),
      keys: blockingKeys(profile.digests, context.workspace),
      token: verifyVisitorToken(context.cookieToken, secret) ?? verifyVisitorToken(input.storedToken, secret),
    }
  })
  // One transaction per batch. Its first statement locks each request's exact device (sorted, so
  // batches never deadlock), so two app servers sharing one PostgreSQL cannot both store the same
  // new device as a new visitor: the second waits for the first's commit, then finds it.
  const attempt = () =>
    db.transaction(async (tx) => {
      await tx.execute(
        sql`select pg_advisory_xact_lock(lock) from (
            select distinct hashtextextended(device, 0) as lock from unnest(${sql.param(prepared.map((job) => job.keys.join(' ')))}::text[]) as device
            order by lock) as locks`,
      )
      const decision = decideBatch(prepared, await readBatch(tx, db, prepared, now), now)
      return { decision, saved: await writeBatch(tx, decision) }
    })
  // A snapshot or a visitor that retention or forgetting deleted while this batch used it, a deadlock
  // PostgreSQL broke, or a day without its table yet (made a week ahead, so only when that has
  // failed for a week): nothing was stored, and the batch runs again.
  const { decision, saved } = await attempt().catch(async (error) => {
    if (error instanceof SnapshotVanished || error instanceof VisitorVanished || isDeadlock(error))
      return attempt()
    if (isMissingDayTable(error)) {
      await ensureComingEventPartitions(db)
      return attempt()
    }
    throw error
  })

  const { outcomes, written, changes } = decision
  applyCommittedCounts(
    db,
    changes,
    // Only new visitors that count in the statistics (visitors.counted) count in the population's
    // size; every new one among all visitors.
    {
      counted: written.filter(({ match, counted }) => match.method === 'new' && counted).length,
      all: written.filter(({ match }) => match.method === 'new').length,
    },
  )
  for (const { index, event, browserId } of written) {
    // The write has committed: from here on nothing may fail, or a retry would store it twice.
    const visitor = saved.find((row) => row.id === event.visitorId)
    outcomes[index] = {
      result: {
        requestId: event.requestId,
        visitorId: event.visitorId,
        visitorFound: event.visitorFound,
        confidence: event.confidence,
        firstSeenAt: visitor?.firstSeenAt ?? event.createdAt,
        lastSeenAt: visitor?.lastSeenAt ?? event.createdAt,
        signals: browserSignals(event.signals),
        suspectScore: event.suspectScore,
        storedToken: signVisitorToken({ visitorId: event.visitorId, browserId }, secret),
      },
    }
  }
  return outcomes
}

/**
 * The signals as the browser's answer carries them: how many other visitors and accounts used its
 * address is for the site's back end (the Server API, /v4, webhooks), not for whoever sits behind
 * that address, nor a guide to staying under the limits.
 */
function browserSignals({ ipVelocity: _, ...signals }: SmartSignals): BrowserSignals {
  return signals
}
