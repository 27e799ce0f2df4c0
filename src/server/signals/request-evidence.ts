import type { AgentProofVerdict } from '@/contracts/signals'

/** What the identify route saw beside the components: the request's own headers, the proof. */
export interface RequestEvidence {
  headers: RequestHeaders
  /**
   * Whether the call carried the agent's proof that it ran (identification/agent-proof.ts): a nonce
   * this server issued for the site, to the same User-Agent, unexpired and not used before.
   */
  agentProof: AgentProofVerdict
  /** The agent's signals whose value did not have the agent's shape (dropped before matching). */
  offShape: string[]
  /** What the front dropped from the forwarding headers (client-address.ts); absent without the front. */
  forwarding?: { untrusted: number; via: boolean }
}

/** The headers a browser sets itself on the identify call, which its components must agree with. */
export interface RequestHeaders {
  userAgent: string | null
  acceptLanguage: string | null
  /** Sec-CH-UA and friends: Chromium sends them only to secure origins (HTTPS, localhost). */
  clientHints: string | null
  clientHintsMobile: string | null
  clientHintsPlatform: string | null
}

/**
 * The longest header text the signals read: as long as the agent's own userAgent component may be.
 * A browser's headers are far shorter; a client's 16 KB one would otherwise cost every pattern
 * matched over it (and the server's time for everyone else) in proportion.
 */
export const HEADER_TEXT_LIMIT = 1024

/** A request header as the signals read it: at most HEADER_TEXT_LIMIT characters. */
export function headerText(headers: Headers, name: string): string | null {
  return headers.get(name)?.slice(0, HEADER_TEXT_LIMIT) ?? null
}

export function readRequestHeaders(headers: Headers): RequestHeaders {
  return {
    userAgent: headerText(headers, 'user-agent'),
    acceptLanguage: headerText(headers, 'accept-language'),
    clientHints: headerText(headers, 'sec-ch-ua'),
    clientHintsMobile: headerText(headers, 'sec-ch-ua-mobile'),
    clientHintsPlatform: headerText(headers, 'sec-ch-ua-platform'),
  }
}
