import 'server-only'

/**
 * Text PostgreSQL cannot store: U+0000 (refused in text and jsonb) and lone UTF-16 surrogates
 * (refused in jsonb; one such string used to fail a whole identify batch). With the `u` flag a
 * surrogate pair is one code point, so only a lone half matches `\p{Cs}`.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what this rule looks for.
const UNSTORABLE = /[\u0000\p{Cs}]/u

export const UNSTORABLE_TEXT_MESSAGE =
  'Text in the request must be well-formed Unicode without NUL characters (\\u0000).'

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text)
}

/** Whether every string and object key in a parsed JSON value, at any depth, is storable. */
export function isStorableJson(value: unknown): boolean {
  if (typeof value === 'string') return isStorableText(value)
  if (Array.isArray(value)) return value.every(isStorableJson)
  if (value !== null && typeof value === 'object')
    return Object.entries(value).every(([key, entry]) => isStorableText(key) && isStorableJson(entry))
  return true
}

/**
 * Whether JSON text nests objects and arrays deeper than `limit`, counted on the raw text so that
 * neither JSON.parse nor a recursive schema ever walks a 5,000-deep value.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c)
        index++ // a backslash escapes the next character, a quote included
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true
    } else if (code === 0x7d || code === 0x5d) depth--
  }
  return false
}
