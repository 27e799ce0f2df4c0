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

export function readRequestHeaders(headers: Headers): RequestHeaders {
  return {
    userAgent: headers.get('user-agent'),
    acceptLanguage: headers.get('accept-language'),
    clientHints: headers.get('sec-ch-ua'),
    clientHintsMobile: headers.get('sec-ch-ua-mobile'),
    clientHintsPlatform: headers.get('sec-ch-ua-platform'),
  }
}
