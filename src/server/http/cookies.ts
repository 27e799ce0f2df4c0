import 'server-only'

/** The value of the request's cookie `name`, or undefined when it has none (or an empty one). */
export function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const pair = part.trim()
    if (pair.startsWith(`${name}=`)) return pair.slice(name.length + 1) || undefined
  }
  return undefined
}
