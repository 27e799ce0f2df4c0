import 'server-only'
import { sql } from 'drizzle-orm'
import { type Database, selectRows } from '../db/client'
import { deviceKeys } from './blocking-keys'
import { eventComponents } from './component-snapshots'
import { profileComponents } from './fingerprint-profile'
import { MODEL_VERSION } from './model-version'

/** Visitors rebuilt per statement: each pass holds the database briefly. */
const PER_PASS = 500

/**
 * Rebuilds up to PER_PASS visitors stored with an older model version (model-version.ts): their
 * profile (digests and parts) and blocking keys from their latest event's components, as this
 * version builds them, moving the value counts with the digests. A visitor without an event left
 * keeps its digests and gets this version's keys from them. Returns how many were rebuilt.
 */
export async function rekeyVisitors({ db }: { db: Database }): Promise<{ rebuilt: number }> {
  return db.transaction(async (tx) => {
    const stale = await selectRows(
      tx,
      {
        id: sql<string>`v.id`,
        profile: sql<Record<string, string>>`v.profile`,
        parts: sql<Record<string, string>>`v.parts`,
        previous: sql<Record<string, string[]>>`v.previous`,
        workspace: sql<string>`v.workspace`,
        counted: sql<boolean>`v.counted`,
        components: eventComponents('latest'),
      },
      (select) => sql`select ${select} from (
          select id, profile, parts, previous, workspace, counted from visitors where model_version < ${MODEL_VERSION}
          order by id limit ${PER_PASS} for update skip locked) as v
        left join lateral (
          select snapshot, durations from events where events.visitor_id = v.id order by created_at desc limit 1
        ) as latest on true`,
    )
    if (stale.length === 0) return { rebuilt: 0 }
    const rebuilt = stale.map((visitor) => {
      const profile = visitor.components
        ? profileComponents(visitor.components)
        : { digests: visitor.profile, parts: visitor.parts }
      return {
        id: visitor.id,
        counted: visitor.counted,
        before: visitor.profile,
        profile,
        keys: deviceKeys(profile.digests, visitor.previous, visitor.workspace),
      }
    })
    const ids = rebuilt.map(({ id }) => id)
    const keyPairs = rebuilt.flatMap(({ id, keys }) => keys.map((key) => [id, key] as const))
    // Only visitors that count in the statistics move them (see visitors.counted); every one moves
    // the count of all visitors.
    const counted = (pick: 'before' | 'after') =>
      rebuilt.flatMap(({ before, profile, counted }) =>
        Object.entries(pick === 'before' ? before : profile.digests).map(([component, digest]) => {
          const delta = pick === 'before' ? -1 : 1
          return [component, digest, counted ? delta : 0, delta] as const
        }),
      )
    const changes = [...counted('before'), ...counted('after')]
    await tx.execute(sql`with rebuilt as (
        update visitors set profile = input.profile, parts = input.parts, model_version = ${MODEL_VERSION}
        from unnest(${sql.param(ids)}::text[],
          ${sql.param(rebuilt.map(({ profile }) => JSON.stringify(profile.digests)))}::jsonb[],
          ${sql.param(rebuilt.map(({ profile }) => JSON.stringify(profile.parts)))}::jsonb[]) as input(id, profile, parts)
        where visitors.id = input.id returning visitors.id),
      old_keys as (delete from visitor_keys where visitor_id = any(${sql.param(ids)}::text[])),
      statistics as (
        insert into component_stats (component, digest, visitors, all_visitors)
        select component, digest, sum(delta), sum(all_delta) from unnest(
          ${sql.param(changes.map(([component]) => component))}::text[],
          ${sql.param(changes.map(([, digest]) => digest))}::text[],
          ${sql.param(changes.map(([, , delta]) => delta))}::int[],
          ${sql.param(changes.map(([, , , all]) => all))}::int[]) as change(component, digest, delta, all_delta)
        group by component, digest having sum(delta) <> 0 or sum(all_delta) <> 0
        -- Locked in identify's order (take-off-statistics.ts), so a batch and a re-keying never deadlock.
        order by component collate "C", digest collate "C"
        on conflict (component, digest) do update set visitors = component_stats.visitors + excluded.visitors,
          all_visitors = component_stats.all_visitors + excluded.all_visitors)
      select count(*) from rebuilt`)
    // Keys go in after the old ones are gone: one statement cannot delete and re-insert one row.
    await tx.execute(sql`insert into visitor_keys (visitor_id, key)
      select * from unnest(${sql.param(keyPairs.map(([id]) => id))}::text[], ${sql.param(keyPairs.map(([, key]) => key))}::text[])
      on conflict do nothing`)
    return { rebuilt: rebuilt.length }
  })
}

/** How many visitors an older model version stored (a scan of the table: counted once per start). */
export async function countStaleVisitors(db: Database): Promise<number> {
  const [row] = await selectRows(
    db,
    { stale: sql<number>`count(*)::int` },
    (select) => sql`select ${select} from visitors where model_version < ${MODEL_VERSION}`,
  )
  return row?.stale ?? 0
}

/**
 * Rebuilds old visitors at start-up, a pass at a time, until none is left; reports progress so an
 * upgrade is never silent. After each pass it pauses at least as long as the pass took (and at
 * least `pauseMs`), so it holds the database at most half the time however loaded the server is,
 * and identifications keep their turn. The visitors left are counted once, then counted down (an
 * estimate for the log).
 */
export function runRekeying(
  db: Database,
  report: {
    progress: (pass: { rebuilt: number; remaining: number }) => void
    failed: (error: unknown) => void
  },
  pauseMs = 200,
) {
  let stopped = false
  const pass = async () => {
    let remaining = await countStaleVisitors(db)
    // Until a pass finds none: servers still on the older version may store more meanwhile.
    while (!stopped) {
      const started = performance.now()
      const { rebuilt } = await rekeyVisitors({ db })
      if (rebuilt === 0) return
      remaining = Math.max(0, remaining - rebuilt)
      report.progress({ rebuilt, remaining })
      const pause = Math.max(pauseMs, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, pause).unref())
    }
  }
  pass().catch(report.failed)
  return () => {
    stopped = true
  }
}
