import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** `sk_<id>.<secret>`: the id finds the row, the secret is checked against its stored hash. */
export function newApiKey(): { id: string; key: string; secretHash: string } {
  const id = randomBytes(9).toString('base64url')
  const secret = randomBytes(32).toString('base64url')
  return { id, key: `sk_${id}.${secret}`, secretHash: hashSecret(secret) }
}

export function parseApiKey(key: string): { id: string; secret: string } | undefined {
  const match = /^sk_([\w-]{12})\.([\w-]{43})$/.exec(key)
  return match?.[1] && match[2] ? { id: match[1], secret: match[2] } : undefined
}

// A 256-bit random secret needs no slow password hash: SHA-256 cannot be brute-forced here.
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url')
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, secretHash: string): boolean {
  const given = Buffer.from(hashSecret(secret))
  const stored = Buffer.from(secretHash)
  return given.length === stored.length && timingSafeEqual(given, stored)
}
