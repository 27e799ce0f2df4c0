import 'server-only'

/** The most characters a logged error message or stack keeps: one bad request, one short line. */
const MAX_MESSAGE = 500
const MAX_STACK = 2_000
const MAX_CAUSES = 3

export interface LoggedError {
  type: string
  message: string
  code?: string
  stack?: string
  cause?: LoggedError
}

/**
 * pino's `err` serializer, by allow-list: type, bounded message and stack frames, SQLSTATE code.
 * Database errors carry the statement's parameters (Drizzle's message, PGlite's `params`,
 * PostgreSQL's `detail`), that is a whole batch of visitors' data: never logged.
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: bound(String(error), MAX_MESSAGE) }
  const logged: LoggedError = { type: error.constructor.name || error.name, message: messageOf(error) }
  const code = ownString(error, 'code')
  if (code && code.length <= 32) logged.code = code
  // The stack's first line repeats the message: keep only the frames.
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '))
  if (frames.length > 0) logged.stack = bound(frames.join('\n'), MAX_STACK)
  if (error.cause !== undefined && depth < MAX_CAUSES) logged.cause = serializeError(error.cause, depth + 1)
  return logged
}

/** A short code to log for an error: PostgreSQL's SQLSTATE (on it or its cause), else its type. */
export function errorCode(error: unknown): string {
  if (!(error instanceof Error)) return typeof error
  return ownString(error, 'code') ?? (error.cause instanceof Error ? errorCode(error.cause) : error.name)
}

function messageOf(error: Error): string {
  // Drizzle's "Failed query: <sql>\nparams: <values>": the SQL is safe, the values are not.
  const [message = ''] = error.message.split('\nparams:')
  return bound(message, MAX_MESSAGE)
}

function ownString(error: Error, key: string): string | undefined {
  const value = (error as unknown as Record<string, unknown>)[key]
  return typeof value === 'string' ? value : undefined
}

function bound(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text
}
