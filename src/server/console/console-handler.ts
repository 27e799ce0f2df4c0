import 'server-only'
import type { z } from 'zod'
import { allows } from '@/contracts/roles'
import { type Database, getDb } from '../db/client'
import { HttpError } from '../http/errors'
import { parseParams } from '../http/parse-query'
import { handle } from '../http/respond'
import { requireOwnNavigation, requireSameOrigin } from '../http/same-origin'
import { roleNeededFor } from './endpoint-roles'
import { type Operator, requireOperator } from './sessions'

export interface ConsoleContext {
  db: Database
  operator: Operator
  request: Request
}

type ConsoleRoute<Params> = (context: ConsoleContext, params: Params) => Promise<Response>

/**
 * A console route: 403 for a change sent from another origin or anything another site's page (or
 * another port's) made the browser ask, 401 unless signed in, 403 unless the
 * operator's role is at least the endpoint's (the endpoint table's `role`), then its path
 * parameters checked against their schema (a 400 naming the parameter, as /api/v1 answers), then
 * the handler with the database and the operator. Its answers are private: never stored by a cache.
 */
export function consoleHandler(
  handler: ConsoleRoute<Record<string, never>>,
): (request: Request) => Promise<Response>
export function consoleHandler<Schema extends z.ZodType<object>>(
  params: Schema,
  handler: ConsoleRoute<z.infer<Schema>>,
): (request: Request, route: { params: Promise<z.input<Schema>> }) => Promise<Response>
export function consoleHandler(
  ...args: [ConsoleRoute<Record<string, never>>] | [z.ZodType<object>, ConsoleRoute<object>]
) {
  return handle(async (request: Request, route?: { params: Promise<unknown> }) => {
    // Reads too: a page on another port of this host (same-site, so a signed-in operator's cookie
    // goes along) must not make the browser stream exports or look-ups over and over.
    requireOwnNavigation(request)
    requireSameOrigin(request)
    const db = await getDb()
    const operator = await requireOperator(db, request)
    // Roles on the server, from the endpoint table: what the console hides is refused here too.
    const needed = roleNeededFor(request.method, new URL(request.url).pathname)
    if (!needed) throw new HttpError('forbidden', 'This console route names no role: it is refused.')
    if (!allows(operator.role, needed))
      throw new HttpError('forbidden', `This needs the ${needed} role; you are an ${operator.role}.`)
    const context = { db, operator, request }
    const response =
      args.length === 1
        ? await args[0](context, {})
        : await args[1](context, parseParams(await route?.params, args[0]))
    response.headers.set('Cache-Control', 'no-store')
    return response
  })
}
