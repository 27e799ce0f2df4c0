import 'server-only'
import type { z } from 'zod'
import { HttpError } from './errors'

/** Validates query-string or path parameters; a bad value is a 400 naming the parameter. */
export function parseParams<Schema extends z.ZodType>(input: unknown, schema: Schema): z.infer<Schema> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const name = issue?.path.join('.') || 'parameters'
  throw new HttpError('invalid_request', `${name}: ${issue?.message ?? 'not valid'}`)
}

export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams)
}
