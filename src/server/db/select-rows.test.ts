import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { describeOnEachEngine } from '../../../tests/support/test-database'
import { type DatabaseHandle, selectRows } from './client'
import { events, rateLimits, sites } from './schema'

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(entry.name) ? [file] : []
  })
}

describe('raw row types', () => {
  it('come from the select list in every server module: none reads rows through queryRows', () => {
    const src = path.resolve(import.meta.dirname, '../..')
    const unchecked = sourceFiles(src)
      .filter((file) => !/\.test\.tsx?$|[/\\]test-[^/\\]*$/.test(file))
      .filter((file) => file !== path.join(src, 'server/db/client.ts'))
      .filter((file) => /\bqueryRows\s*[<(]/.test(readFileSync(file, 'utf8')))
    expect(unchecked.map((file) => path.relative(src, file))).toEqual([])
  })

  it('do not compile when code reads a field the select list does not name', () => {
    // Type-level only: tsc fails here the day the row type stops following the select list.
    const readsUnselected = async (handle: DatabaseHandle) => {
      const [row] = await selectRows(
        handle.db,
        { requestId: events.requestId },
        (select) => sql`select ${select} from events`,
      )
      // @ts-expect-error: the select list names it requestId; the column's SQL name is not a field
      return row?.request_id
    }
    expect(readsUnselected).toBeTypeOf('function')
  })

  it('do not compile for a column only the builder reads as a Date', () => {
    const readsDate = (handle: DatabaseHandle) =>
      // @ts-expect-error: rate_limits.expire is a Date column; a raw read answers an ISO string
      selectRows(handle.db, { expire: rateLimits.expire }, (select) => sql`select ${select} from rate_limits`)
    expect(readsDate).toBeTypeOf('function')
  })
})

describeOnEachEngine('selectRows', (handle) => {
  it('names each field after its key, columns and typed expressions alike', async () => {
    const { db } = handle
    await db
      .insert(sites)
      .values({ id: 'site_rows', name: 'Rows', publicKey: 'pk_rows', allowedOrigins: ['https://a.example'] })
    const rows = await selectRows(
      db,
      {
        publicKey: sites.publicKey,
        allowedOrigins: sites.allowedOrigins,
        isDefault: sites.isDefault,
        createdAt: sites.createdAt,
        origins: sql<number>`cardinality(${sites.allowedOrigins})`,
      },
      (select) => sql`select ${select} from sites where id = 'site_rows'`,
    )
    expect(rows).toEqual([
      {
        publicKey: 'pk_rows',
        allowedOrigins: ['https://a.example'],
        isDefault: false,
        createdAt: expect.stringMatching(/Z$/),
        origins: 1,
      },
    ])
  })
})
