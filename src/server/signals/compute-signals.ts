import type { ComponentResult } from '@/contracts/identify'
import { matchingNetwork } from '@/contracts/network-range'
import type { AgentProofVerdict, SmartSignals } from '@/contracts/signals'
import type { AddressInfo } from '../network/network-data'
import { detectBot } from './detect-bot'
import { detectPrivacyBrowser, detectPrivateMode, detectVirtualMachine } from './detect-environment'
import { detectNetwork } from './detect-network'
import { detectTampering } from './detect-tampering'
import { type AddressActivity, computeIpVelocity } from './ip-velocity'
import { ComponentReader } from './read-components'
import type { RequestEvidence } from './request-evidence'
import { computeVelocity, type VelocityRow } from './velocity'

const proofReasons: Record<AgentProofVerdict, string[]> = {
  valid: [],
  missing: ['The call carried no nonce from this server: the agent did not run, or an old agent did.'],
  invalid: ['The call carried a nonce this server did not issue for this site and browser.'],
  expired: ['The call carried an expired nonce.'],
  reused: ['The call carried a nonce that another identification already used.'],
}

/** Every smart signal of one identification, each with plain-language reasons. */
export function computeSignals(
  components: Record<string, ComponentResult>,
  context: {
    ip: string | null
    linkedId?: string
    velocity?: VelocityRow
    /** The visitor this identification was given, and its address's and network's activity before it. */
    visitorId?: string
    addressActivity?: { address?: AddressActivity; network?: AddressActivity }
    evidence?: RequestEvidence
    /** The client address looked up in the network databases (network-data.ts); null when it has none. */
    address?: AddressInfo | null
    /** The site's blocked addresses and ranges (normalised; see contracts/network-range.ts). */
    blockedNetworks?: readonly string[]
  },
): SmartSignals {
  const read = new ComponentReader(components)
  const { evidence } = context
  return {
    bot: detectBot(read, evidence),
    tampering: detectTampering(read),
    privacyBrowser: detectPrivacyBrowser(read),
    privateMode: detectPrivateMode(read),
    virtualMachine: detectVirtualMachine(read),
    velocity: computeVelocity(context.velocity, context),
    ipVelocity: computeIpVelocity(context.ip, context.addressActivity ?? {}, {
      visitorId: context.visitorId ?? '',
      linkedId: context.linkedId,
    }),
    ...detectNetwork(context.address ?? null, read, evidence),
    ipBlocklist: checkBlocklist(context.ip, context.blockedNetworks ?? []),
    ...(evidence && {
      agentProof: { result: evidence.agentProof, reasons: proofReasons[evidence.agentProof] },
    }),
  }
}

function checkBlocklist(ip: string | null, networks: readonly string[]): SmartSignals['ipBlocklist'] {
  // The matched entry is not named: the identify answer goes back to the browser, and a blocked
  // client must not learn the list's ranges by probing it. The console shows the address.
  return ip && matchingNetwork(ip, networks)
    ? { result: true, reasons: ["The address is in this site's blocklist."] }
    : { result: false, reasons: [] }
}
