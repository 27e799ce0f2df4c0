import { buildOpenApiDocument } from '@/server/api/openapi-document'
import { handle, json } from '@/server/http/respond'

export const dynamic = 'force-dynamic'

export const GET = handle(async (request: Request) => {
  const url = new URL(request.url)
  return json(buildOpenApiDocument(url.origin), { headers: { 'Access-Control-Allow-Origin': '*' } })
})
