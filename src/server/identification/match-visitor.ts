import type { Digests } from './digest-components'
import { scoreSimilarity } from './score-similarity'

export interface Candidate {
  visitorId: string
  profile: Digests
  /** Milliseconds since the epoch. */
  lastSeenAt: number
}

export type Match =
  | { method: 'token' | 'fingerprint'; visitorId: string; similarity: number; runnerUp: number }
  | { method: 'new'; similarity: number }

/** A token is honoured only while the fingerprint still broadly looks like its visitor. */
export const TOKEN_MIN_SIMILARITY = 0.6
/**
 * Without a token, matching needs a near-identical fingerprint and a clear lead: a browser update
 * or a new time zone still match, but a different font set alone does not, because two devices of
 * one model often differ in nothing else (a false merge costs more than a new visitor ID).
 */
export const FINGERPRINT_MIN_SIMILARITY = 0.95
export const FINGERPRINT_MIN_LEAD = 0.04

/**
 * Decides which visitor a fingerprint belongs to: the signed token's visitor when consistent,
 * otherwise the most similar candidate above the threshold, otherwise a new visitor.
 */
export function matchVisitor(current: Digests, candidates: Candidate[], tokenVisitorId?: string): Match {
  const scored = candidates
    .map((candidate) => ({
      visitorId: candidate.visitorId,
      lastSeenAt: candidate.lastSeenAt,
      similarity: scoreSimilarity(current, candidate.profile),
    }))
    .sort((a, b) => b.similarity - a.similarity)

  const fromToken = tokenVisitorId ? scored.find((entry) => entry.visitorId === tokenVisitorId) : undefined
  if (fromToken && fromToken.similarity >= TOKEN_MIN_SIMILARITY) {
    const runnerUp = scored.find((entry) => entry.visitorId !== fromToken.visitorId)?.similarity ?? 0
    return { method: 'token', visitorId: fromToken.visitorId, similarity: fromToken.similarity, runnerUp }
  }

  const [best] = scored
  if (!best) return { method: 'new', similarity: 0 }
  if (best.similarity < FINGERPRINT_MIN_SIMILARITY) return { method: 'new', similarity: best.similarity }
  // Near-ties are the same device stored twice (a lost token, say): the most recently seen wins,
  // and the small lead lowers the confidence.
  const tied = scored.filter((entry) => best.similarity - entry.similarity < FINGERPRINT_MIN_LEAD)
  const chosen = tied.reduce((latest, entry) => (entry.lastSeenAt > latest.lastSeenAt ? entry : latest), best)
  const runnerUp = scored.find((entry) => entry.visitorId !== chosen.visitorId)?.similarity ?? 0
  return { method: 'fingerprint', visitorId: chosen.visitorId, similarity: chosen.similarity, runnerUp }
}
