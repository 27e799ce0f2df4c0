import { describe, expect, it } from 'vitest'
import { AGENT_PROOF_TTL_MS, issueAgentNonce, verifyAgentNonce } from './agent-proof'

const binding = { secret: 'test-secret', siteKey: 'pk_shop', userAgent: 'Mozilla/5.0 Test', now: 1_000_000 }

describe('the agent’s nonce', () => {
  it('proves one identify call, for its site and browser, within its lifetime', () => {
    const { nonce, expiresAt } = issueAgentNonce(binding)
    expect(Date.parse(expiresAt)).toBe(binding.now + AGENT_PROOF_TTL_MS)
    expect(verifyAgentNonce(nonce, { ...binding, now: binding.now + 1_000 })).toBe('valid')
    expect(verifyAgentNonce(nonce, { ...binding, now: binding.now + 2_000 })).toBe('reused')
  })

  it('is refused for another site, another browser, another key, or once expired', () => {
    const issue = () => issueAgentNonce(binding).nonce
    expect(verifyAgentNonce(issue(), { ...binding, siteKey: 'pk_other' })).toBe('invalid')
    expect(verifyAgentNonce(issue(), { ...binding, userAgent: 'curl/8.0' })).toBe('invalid')
    expect(verifyAgentNonce(issue(), { ...binding, userAgent: null })).toBe('invalid')
    expect(verifyAgentNonce(issue(), { ...binding, secret: 'another-secret' })).toBe('invalid')
    expect(verifyAgentNonce(issue(), { ...binding, now: binding.now + AGENT_PROOF_TTL_MS })).toBe('expired')
  })

  it('cannot be stretched or forged', () => {
    const [version, expiry, id, mac] = issueAgentNonce(binding).nonce.split('.')
    const later = (Number.parseInt(expiry ?? '', 36) + 3_600_000).toString(36)
    expect(verifyAgentNonce([version, later, id, mac].join('.'), binding)).toBe('invalid')
    for (const junk of [
      '',
      'n1',
      'n1...',
      `n1.${expiry}.${id}.${mac}.x`,
      'x'.repeat(200),
      `n2.${expiry}.${id}.${mac}`,
    ])
      expect(verifyAgentNonce(junk, binding), junk).toBe(junk ? 'invalid' : 'missing')
    expect(verifyAgentNonce(undefined, binding)).toBe('missing')
  })
})
