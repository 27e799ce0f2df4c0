import { describe, expect, it } from 'vitest'
import { embedSnippets } from './embed-snippet'

describe('embedSnippets', () => {
  const origin = 'https://tessera.example.com'

  it('loads the agent from Tessera when no public paths are set', () => {
    const { direct, firstParty } = embedSnippets('pk_1', origin)
    expect(direct).toContain(`<script src="${origin}/agent.js"></script>`)
    expect(direct).toContain(`Tessera.load({ siteKey: 'pk_1', endpoint: '${origin}' })`)
    expect(firstParty).toBeUndefined()
  })

  it("adds the site's own domain: the agent's public path and the API prefix on the page's origin", () => {
    const { firstParty } = embedSnippets('pk_1', origin, {
      agentPath: '/metrics/t.js',
      apiPrefix: '/metrics/r',
    })
    expect(firstParty).toContain('<script src="/metrics/t.js"></script>')
    expect(firstParty).toContain(`Tessera.load({ siteKey: 'pk_1', apiPrefix: '/metrics/r' })`)
    expect(firstParty).not.toContain(origin)
  })

  it('keeps calling Tessera when only the script has a public path', () => {
    const { firstParty } = embedSnippets('pk_1', origin, { agentPath: '/metrics/t.js' })
    expect(firstParty).toContain('<script src="/metrics/t.js"></script>')
    expect(firstParty).toContain(`endpoint: '${origin}'`)
  })

  it('loads the script from Tessera when only the API has a public path', () => {
    const { firstParty } = embedSnippets('pk_1', origin, { apiPrefix: '/metrics/r' })
    expect(firstParty).toContain(`<script src="${origin}/agent.js"></script>`)
    expect(firstParty).toContain(`apiPrefix: '/metrics/r'`)
  })
})
