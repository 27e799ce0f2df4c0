import 'server-only'
import type { z } from 'zod'
import { HttpError } from './errors'
import { refusedInput } from './parse-request'
import { isStorableJson, UNSTORABLE_TEXT_MESSAGE } from './storable-text'

/** Validates query-string or path parameters; a bad value is a 400 naming the parameter. */
export function parseParams<Schema extends z.ZodType>(input: unknown, schema: Schema): z.infer<Schema> {
  assertStorableParams(input)
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw refusedInput(result.error, 'parameters', 'parameters: not valid')
}

/** Path or query parameters with NUL or a lone surrogate (e.g. `%00`) are a 400, never a database error. */
export function assertStorableParams(input: unknown): void {
  if (!isStorableJson(input)) throw new HttpError('invalid_request', UNSTORABLE_TEXT_MESSAGE)
}

export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams)
}
