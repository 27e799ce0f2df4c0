import 'server-only'
import type { z } from 'zod'
import { fieldErrors } from '@/contracts/field-errors'
import { HttpError } from './errors'
import { isStorableJson, nestsDeeperThan, UNSTORABLE_TEXT_MESSAGE } from './storable-text'

const DEFAULT_MAX_BYTES = 64 * 1024
/** Deeper than any agent component or integrator tag needs; bounds every recursive walk after it. */
export const MAX_JSON_DEPTH = 32

/**
 * Reads a JSON body (size-limited, while streaming) and validates it against a schema.
 * Every way a caller can get it wrong becomes an HttpError with a plain message.
 */
export async function parseRequest<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  { maxBytes = DEFAULT_MAX_BYTES }: { maxBytes?: number } = {},
): Promise<z.infer<Schema>> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!/^(application\/json|text\/plain)\b/i.test(contentType)) throw new HttpError('unsupported_media_type')
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > maxBytes)
    throw new HttpError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`)

  const text = await readLimited(request, maxBytes)
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw new HttpError('invalid_request', `The request body nests more than ${MAX_JSON_DEPTH} levels deep.`)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new HttpError('invalid_json')
  }
  if (!isStorableJson(body)) throw new HttpError('invalid_request', UNSTORABLE_TEXT_MESSAGE)
  const result = schema.safeParse(body)
  if (!result.success) throw refusedInput(result.error, 'body', 'The request is not valid.')
  return result.data
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  while (true) {
    const { done, value } = await reader.read().catch(() => {
      throw new HttpError('invalid_request', 'The request body ended before it was complete.')
    })
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw new HttpError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`)
    }
    chunks.push(value)
  }
  try {
    // Fatal: bytes that are not UTF-8 are the caller's mistake, not text to guess at.
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
  } catch {
    throw new HttpError('invalid_json', 'The request body is not valid UTF-8.')
  }
}

/**
 * The one shape of a refused input, body or parameters: a message naming the first field, each
 * field's first message (what a form shows beside the field), and every issue with its full path
 * (what an API client logs).
 */
export function refusedInput(error: z.ZodError, unnamed: string, fallback: string): HttpError {
  const issues = error.issues
    .slice(0, 10)
    .map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
  const first = issues[0]
  const message = first ? `${first.path || unnamed}: ${first.message}` : fallback
  return new HttpError('invalid_request', message, { fields: fieldErrors(error), issues })
}
