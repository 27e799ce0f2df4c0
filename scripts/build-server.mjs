// Builds the routes scripts/serve.mjs answers ahead of Next.js (src/server/http/serve-node-route.ts)
// into dist/server/serve-node-route.mjs: Tessera's own code only, packages load from node_modules.
// The database handle lives on globalThis, so this bundle and Next's share one database.
import { build } from 'esbuild'

/** `server-only` throws outside React Server Components; this bundle is server code too. */
const serverOnly = {
  name: 'server-only',
  setup(builder) {
    builder.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'empty' }))
    builder.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: '' }))
  },
}

await build({
  entryPoints: ['src/server/http/serve-node-route.ts'],
  outfile: 'dist/server/serve-node-route.mjs',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  plugins: [serverOnly],
  legalComments: 'none',
  logLevel: 'warning',
})
