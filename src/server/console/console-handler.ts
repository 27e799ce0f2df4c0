import 'server-only'
import type { z } from 'zod'
import { type Database, getDb } from '../db/client'
import { parseParams } from '../http/parse-query'
import { handle } from '../http/respond'
import { requireSameOrigin } from '../http/same-origin'
import { type Operator, requireOperator } from './sessions'

export interface ConsoleContext {
  db: Database
  operator: Operator
  request: Request
}

type ConsoleRoute<Params> = (context: ConsoleContext, params: Params) => Promise<Response>

/**
 * A console route: 403 for a change sent from another origin, 401 unless signed in, then its path
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
    requireSameOrigin(request)
    const db = await getDb()
    const context = { db, operator: await requireOperator(db, request), request }
    const response =
      args.length === 1
        ? await args[0](context, {})
        : await args[1](context, parseParams(await route?.params, args[0]))
    response.headers.set('Cache-Control', 'no-store')
    return response
  })
}
