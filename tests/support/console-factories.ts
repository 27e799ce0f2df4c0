import { sql } from 'drizzle-orm'
import { ensureFirstOperator } from '../../src/server/console/ensure-first-operator'
import { type Database, queryRows } from '../../src/server/db/client'
import { ensureDefaultSite } from '../../src/server/sites/ensure-default-site'

// Small factories for the rows console tests start from, each made the way Tessera makes it.

/** The first operator's password in console tests. */
export const OPERATOR_PASSWORD = 'correct horse battery staple'

export interface SiteRow {
  id: string
  publicKey: string
}

/** The default site, as start-up creates it (no allowed origins). */
export async function defaultSite(db: Database): Promise<SiteRow> {
  const { publicKey } = await ensureDefaultSite({ db, origins: [] })
  const [site] = await queryRows<{ id: string }>(
    db,
    sql`select id from sites where public_key = ${publicKey}`,
  )
  if (!site) throw new Error('The default site was not created.')
  return { id: site.id, publicKey }
}

// Hashing the password (argon2id, about 0.1 s) is the slow part of making the operator: start-up's
// own ensureFirstOperator makes it once per test file, and later databases get a copy of its row.
let operatorRow: Promise<unknown> | undefined

/** The first operator, `admin` with OPERATOR_PASSWORD, as start-up creates it from TESSERA_ADMIN_PASSWORD. */
export async function firstOperator(db: Database): Promise<void> {
  if (operatorRow) {
    const row = await operatorRow
    await db.execute(
      sql`insert into operators select * from jsonb_populate_record(null::operators, ${JSON.stringify(row)}::jsonb)`,
    )
    return
  }
  const made = (async () => {
    const { created } = await ensureFirstOperator({ db, configuredPassword: OPERATOR_PASSWORD })
    if (!created) throw new Error('firstOperator() needs a database without operators.')
    const [row] = await queryRows<{ row: unknown }>(db, sql`select to_jsonb(operators) as row from operators`)
    return row?.row
  })()
  operatorRow = made
  made.catch(() => {
    if (operatorRow === made) operatorRow = undefined
  })
  await made
}

/** What a freshly started Tessera holds: the default site and the first operator. */
export async function startedTessera(db: Database): Promise<{ site: SiteRow }> {
  const site = await defaultSite(db)
  await firstOperator(db)
  return { site }
}
