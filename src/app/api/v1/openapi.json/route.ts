import { buildOpenApiDocument } from '@/server/api/openapi-document'
import { handle, json, otherMethods } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

export const GET = handle(async (request: Request) => {
  const url = new URL(request.url)
  return json(buildOpenApiDocument(url.origin), { headers: { 'Access-Control-Allow-Origin': '*' } })
})

// The other methods: the JSON error with what this endpoint takes, not an empty 405; OPTIONS lists them.
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET')
