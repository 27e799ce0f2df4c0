import 'server-only'
import { type Database, getDb } from '../db/client'
import { assertStorableParams } from '../http/parse-query'
import { handle } from '../http/respond'
import { requireSameOrigin } from '../http/same-origin'
import { type Operator, requireOperator } from './sessions'

export interface ConsoleContext {
  db: Database
  operator: Operator
  request: Request
}

/**
 * A console route: 403 for a change sent from another origin, 401 unless signed in, then the
 * handler with the database and the operator. Its answers are private: never stored by a cache.
 */
export function consoleHandler<Params>(
  handler: (context: ConsoleContext, params: Params) => Promise<Response>,
) {
  return handle(async (request: Request, route?: { params: Promise<Params> }) => {
    requireSameOrigin(request)
    const db = await getDb()
    const operator = await requireOperator(db, request)
    const params = await route?.params
    assertStorableParams(params)
    const response = await handler({ db, operator, request }, params as Params)
    response.headers.set('Cache-Control', 'no-store')
    return response
  })
}
