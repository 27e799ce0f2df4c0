import 'server-only'
import { headers } from 'next/headers'

/** The origin this request reached Tessera on, for snippets that point back at it. */
export async function publicOrigin(): Promise<string> {
  const incoming = await headers()
  const host = incoming.get('x-forwarded-host') ?? incoming.get('host') ?? 'localhost:3000'
  const protocol = incoming.get('x-forwarded-proto') ?? 'http'
  return `${protocol}://${host}`
}
