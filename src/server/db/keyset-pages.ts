/** Where a page of rows ordered by (created_at, request ID), newest first, ended. */
export type Cursor = { createdAt: string; requestId: string }

/** Pages of rows newest first, each read after the last row of the one before (created_at, then request ID). */
export async function* keysetPages<Row extends Cursor>(
  readPage: (cursor: Cursor | undefined) => Promise<Row[]>,
  pageSize: number,
): AsyncGenerator<Row[]> {
  let cursor: Cursor | undefined
  for (;;) {
    const rows = await readPage(cursor)
    yield rows
    const last = rows[rows.length - 1]
    if (rows.length < pageSize || !last) return
    cursor = { createdAt: last.createdAt, requestId: last.requestId }
  }
}
