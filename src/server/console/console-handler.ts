import 'server-only'
import { type Database, getDb } from '../db/client'
import { assertStorableParams } from '../http/parse-query'
import { handle } from '../http/respond'
import { type Operator, requireOperator } from './sessions'

export interface ConsoleContext {
  db: Database
  operator: Operator
  request: Request
}

/** A console route: 401 unless signed in, then the handler with the database and the operator. */
export function consoleHandler<Params>(
  handler: (context: ConsoleContext, params: Params) => Promise<Response>,
) {
  return handle(async (request: Request, route?: { params: Promise<Params> }) => {
    const db = await getDb()
    const operator = await requireOperator(db, request)
    const params = await route?.params
    assertStorableParams(params)
    return handler({ db, operator, request }, params as Params)
  })
}
