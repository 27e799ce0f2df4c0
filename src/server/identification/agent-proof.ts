import 'server-only'
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { AgentProofVerdict } from '@/contracts/signals'
import type { Database } from '../db/client'
import { processWide } from '../process-wide'
import { getServerSecret } from '../settings/server-secret'

/**
 * How long an issued nonce may be used. The agent asks for one while it collects and sends it
 * with the identify call a second or two later; a page that identifies again asks again.
 */
export const AGENT_PROOF_TTL_MS = 2 * 60_000
/** Nonces remembered as used, at most (each for its TTL): about 10 MB at the cap. */
const MAX_REMEMBERED = 200_000

/** The HMAC key of agent nonces: its own, so a nonce can never pass for a visitor token. */
export function getAgentProofSecret(db: Database): Promise<string> {
  return getServerSecret(db, 'agent_proof_secret')
}

interface Binding {
  secret: string
  siteKey: string
  /** The User-Agent header: the nonce request and the identify call come from one browser. */
  userAgent: string | null
  now: number
}

/**
 * A nonce `n1.<expiry>.<id>.<mac>` for the agent to send with its identify call. Not bound to the
 * client address: a dual-stack or mobile browser may reach the server from another one a second later.
 */
export function issueAgentNonce({ secret, siteKey, userAgent, now }: Binding) {
  const expires = now + AGENT_PROOF_TTL_MS
  const id = randomBytes(12).toString('base64url')
  const expiry = expires.toString(36)
  return {
    nonce: `n1.${expiry}.${id}.${mac(secret, siteKey, userAgent, expiry, id)}`,
    expiresAt: new Date(expires).toISOString(),
  }
}

/** Checks a nonce against its binding, and remembers it so it proves one identification only. */
export function verifyAgentNonce(nonce: string | undefined, binding: Binding): AgentProofVerdict {
  if (!nonce) return 'missing'
  const [version, expiry, id, given, extra] = nonce.split('.')
  if (version !== 'n1' || !expiry || !id || !given || extra !== undefined) return 'invalid'
  if (!matches(given, mac(binding.secret, binding.siteKey, binding.userAgent, expiry, id))) return 'invalid'
  const expires = Number.parseInt(expiry, 36)
  if (!(expires > binding.now)) return 'expired'
  // One use per app server; across app servers a nonce can prove at most one call on each, within its TTL.
  const used = processWide('usedAgentNonces', () => new Map<string, number>())
  if (used.has(id)) return 'reused'
  used.set(id, expires)
  for (const [oldest, until] of used) {
    if (until > binding.now && used.size <= MAX_REMEMBERED) break
    used.delete(oldest)
  }
  return 'valid'
}

function mac(secret: string, siteKey: string, userAgent: string | null, expiry: string, id: string): string {
  return createHmac('sha256', secret)
    .update(['agent-nonce', siteKey, userAgent ?? '', expiry, id].join('\n'))
    .digest('base64url')
    .slice(0, 32)
}

function matches(given: string, expected: string): boolean {
  const left = Buffer.from(given)
  const right = Buffer.from(expected)
  return left.length === right.length && timingSafeEqual(left, right)
}
