// What events take on disk: the tables scale-load.ts names as event storage, read from the
// catalogue (sizes of heap, TOAST, indexes; the mean stored size of each column).
import { sql } from 'drizzle-orm'
import { type DatabaseHandle, queryRows } from '../../src/server/db/client'
import { EVENT_STORAGE_TABLES } from './scale-load'

export interface TableSize {
  table: string
  heap: string
  toast: string
  indexes: string
  total: string
}

export interface ColumnSize {
  table: string
  column: string
  bytes: number
}

export async function measureStorage(
  handle: DatabaseHandle,
): Promise<{ tables: TableSize[]; columns: ColumnSize[] }> {
  const tables = await queryRows<TableSize>(
    handle.db,
    // A partitioned table's sizes are its partitions' (events by day on PostgreSQL); a plain table
    // (component_snapshots) is its own: pg_partition_tree answers no row for one, which left the
    // snapshots out of every run from day tables on (2026-11-26 to 11-28).
    sql`select t as table, sum(pg_relation_size(p.relid))::text as heap,
          sum(pg_table_size(p.relid) - pg_relation_size(p.relid))::text as toast,
          sum(pg_indexes_size(p.relid))::text as indexes, sum(pg_total_relation_size(p.relid))::text as total
        from unnest(${sql.param(EVENT_STORAGE_TABLES)}::text[]) as t,
          lateral (select relid from pg_partition_tree(t::regclass)
                   union all select t::regclass where not exists (select from pg_partition_tree(t::regclass))) as p
        group by t order by array_position(${sql.param(EVENT_STORAGE_TABLES)}::text[], t)`,
  )
  return { tables, columns: await columnSizes(handle) }
}

/** Each column's mean stored size (compressed where it is), over 20 000 rows of each table. */
async function columnSizes(handle: DatabaseHandle): Promise<ColumnSize[]> {
  const sizes: ColumnSize[] = []
  for (const table of EVENT_STORAGE_TABLES) {
    const names = await queryRows<{ name: string }>(
      handle.db,
      sql`select column_name as name from information_schema.columns
          where table_name = ${table} order by ordinal_position`,
    )
    const means = sql.join(
      names.map(
        ({ name }) =>
          sql`coalesce(avg(pg_column_size(${sql.identifier(name)})), 0)::float8 as ${sql.identifier(name)}`,
      ),
      sql`, `,
    )
    const [row] = await queryRows<Record<string, number>>(
      handle.db,
      sql`select ${means} from (select * from ${sql.identifier(table)} limit 20000) as sample`,
    )
    for (const { name } of names) sizes.push({ table, column: name, bytes: Number(row?.[name] ?? 0) })
  }
  return sizes
}
