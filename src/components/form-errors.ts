// What went wrong with a form, split between its fields and the form as a whole.

/** Each field's own message, and one for the form when the problem names none of its fields. */
export type FormErrors = { fields: Partial<Record<string, string>>; form?: string }

export const noErrors: FormErrors = { fields: {} }

type Issue = { path: string | readonly PropertyKey[]; message: string }

/**
 * Per-field messages from an error's details, the first per field: the server's
 * `{ fields: { name: message } }` (every refused input), or zod's own issues from a check made in
 * the browser, `[{ path, message }]`, where the first segment of the path names the field.
 */
export function fieldMessages(details: unknown): Record<string, string> {
  const messages: Record<string, string> = {}
  if (Array.isArray(details)) {
    for (const issue of details.filter(isIssue)) {
      const field = String(typeof issue.path === 'string' ? issue.path.split('.')[0] : issue.path[0])
      if (field) messages[field] ??= issue.message
    }
  } else if (isRecord(details) && isRecord(details.fields)) {
    for (const [field, message] of Object.entries(details.fields)) {
      if (typeof message === 'string') messages[field] = message
    }
  }
  return messages
}

/**
 * Splits a failure between the form's fields (`fieldNames`) and the form: a message that names
 * no field of this form, or names one the form does not have, is the form's.
 */
export function splitErrors(message: string, details: unknown, fieldNames: readonly string[]): FormErrors {
  const named = Object.entries(fieldMessages(details))
  const fields = Object.fromEntries(named.filter(([field]) => fieldNames.includes(field)))
  const unplaced = named.length === 0 || named.length > Object.keys(fields).length
  return unplaced ? { fields, form: message } : { fields }
}

/** Moves keyboard focus to the first control, in the form's order, whose field has a message. */
export function focusFirstError(form: HTMLFormElement | null, fields: FormErrors['fields']) {
  for (const element of Array.from(form?.elements ?? [])) {
    if ('name' in element && typeof element.name === 'string' && fields[element.name]) {
      if (element instanceof HTMLElement) element.focus()
      return
    }
  }
}

function isIssue(value: unknown): value is Issue {
  return (
    isRecord(value) &&
    typeof value.message === 'string' &&
    (typeof value.path === 'string' || Array.isArray(value.path))
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
