import 'server-only'
import type { z } from 'zod'
import { HttpError } from './errors'

const DEFAULT_MAX_BYTES = 64 * 1024

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
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new HttpError('invalid_json')
  }
  if (containsNul(body))
    throw new HttpError('invalid_request', 'Text in the request must not contain NUL characters (\\u0000).')
  const result = schema.safeParse(body)
  if (!result.success) {
    const issues = result.error.issues.slice(0, 10).map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }))
    const first = issues[0]
    const message = first ? `${first.path || 'body'}: ${first.message}` : 'The request is not valid.'
    throw new HttpError('invalid_request', message, issues)
  }
  return result.data
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  while (true) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw new HttpError('payload_too_large', `The request body is larger than ${maxBytes} bytes.`)
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

/** Whether any string (or object key) in parsed JSON holds U+0000, which PostgreSQL cannot store. */
function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (Array.isArray(value)) return value.some(containsNul)
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, entry]) => key.includes('\u0000') || containsNul(entry))
  return false
}
