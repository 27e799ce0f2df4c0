import type { z } from 'zod'

/**
 * A refused input's messages as `{ field: message }`: the first message per top-level field, as
 * a form shows it beside the field (`form` when the input as a whole is wrong).
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form')
    errors[field] ??= issue.message
  }
  return errors
}
