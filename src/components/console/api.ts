import { type FormErrors, splitErrors } from '../form-errors'

/** Calls a console endpoint; throws an Error carrying the server's plain message on failure. */
export async function callConsole<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    cache: 'no-store',
  })
  if (response.status === 204) return undefined as T
  const body = await response.json().catch(() => undefined)
  if (!response.ok) {
    const message = body?.error?.message ?? `The server answered ${response.status}.`
    throw new ConsoleError(message, response.status, body?.error?.code, body?.error?.details)
  }
  return body as T
}

export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The error catalogue's code, e.g. `challenge_required`. */
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

/** A failed console call's messages, placed on the form's own fields where they name one. */
export function formErrorsOf(failure: unknown, fieldNames: readonly string[], fallback: string): FormErrors {
  if (!(failure instanceof Error)) return { fields: {}, form: fallback }
  return splitErrors(
    failure.message,
    failure instanceof ConsoleError ? failure.details : undefined,
    fieldNames,
  )
}
