import { sql } from 'drizzle-orm'
import type { Database } from '../../src/server/db/client'
import { blockingKeys } from '../../src/server/identification/blocking-keys'
import { profileComponents } from '../../src/server/identification/fingerprint-profile'
import { MODEL_VERSION } from '../../src/server/identification/model-version'
import { syntheticDevice } from '../../tests/support/synthetic-devices'

const BATCH = 5_000

/**
 * Writes `count` synthetic visitors (seeds 0…count-1) with their blocking keys and statistics, built
 * by this version of the model and saying so: visitors of an older version would be re-keyed by the
 * server at start, and the bench would measure that upgrade instead of identification.
 */
export async function prefillVisitors(db: Database, count: number, log: (line: string) => void) {
  const stats = new Map<string, number>()
  for (let start = 0; start < count; start += BATCH) {
    const ids: string[] = []
    const profiles: string[] = []
    const parts: string[] = []
    const keyIds: string[] = []
    const keys: string[] = []
    for (let seed = start; seed < Math.min(count, start + BATCH); seed++) {
      const { digests, parts: valueParts } = profileComponents(syntheticDevice(seed))
      const id = `synthetic-${seed}`
      ids.push(id)
      profiles.push(JSON.stringify(digests))
      parts.push(JSON.stringify(valueParts))
      for (const key of blockingKeys(digests)) {
        keyIds.push(id)
        keys.push(key)
      }
      for (const [component, digest] of Object.entries(digests)) {
        const statKey = `${component}\u0000${digest}`
        stats.set(statKey, (stats.get(statKey) ?? 0) + 1)
      }
    }
    await db.execute(
      sql`insert into visitors (id, profile, parts, model_version)
          select *, ${MODEL_VERSION} from unnest(${sql.param(ids)}::text[], ${sql.param(profiles)}::jsonb[], ${sql.param(parts)}::jsonb[])`,
    )
    await db.execute(
      sql`insert into visitor_keys (key, visitor_id) select * from unnest(${sql.param(keys)}::text[], ${sql.param(keyIds)}::text[])`,
    )
    if ((start / BATCH) % 20 === 0) log(`  prefill: ${Math.min(count, start + BATCH)} / ${count} visitors`)
  }
  const components: string[] = []
  const digests: string[] = []
  const counts: number[] = []
  for (const [key, visitors] of stats) {
    const [component = '', digest = ''] = key.split('\u0000')
    components.push(component)
    digests.push(digest)
    counts.push(visitors)
  }
  await db.execute(
    sql`insert into component_stats (component, digest, visitors, all_visitors)
        select c, d, n, n from unnest(${sql.param(components)}::text[], ${sql.param(digests)}::text[], ${sql.param(counts)}::int[]) as u(c, d, n)`,
  )
  await db.execute(sql`vacuum analyze`)
}
