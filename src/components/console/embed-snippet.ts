/** Tessera's public paths for first-party serving (TESSERA_AGENT_PATH, TESSERA_API_PREFIX), when set. */
export interface PublicPaths {
  agentPath?: string
  apiPrefix?: string
}

/**
 * The code a site pastes into its pages: the agent loaded from Tessera's origin and, when the
 * server has public paths, the same served from the site's own domain through its proxy (the page
 * then calls its own origin, so ad blockers see no other host).
 */
export function embedSnippets(siteKey: string, origin: string, paths: PublicPaths = {}) {
  const snippet = (script: string, options: string) => `<script src="${script}"></script>
<script type="module">
  const agent = await Tessera.load({ ${options} })
  const { requestId } = await agent.get()
</script>`
  const direct = snippet(`${origin}/agent.js`, `siteKey: '${siteKey}', endpoint: '${origin}'`)
  if (!paths.agentPath && !paths.apiPrefix) return { direct }
  const firstParty = snippet(
    paths.agentPath ?? `${origin}/agent.js`,
    paths.apiPrefix
      ? `siteKey: '${siteKey}', apiPrefix: '${paths.apiPrefix}'`
      : `siteKey: '${siteKey}', endpoint: '${origin}'`,
  )
  return { direct, firstParty }
}
