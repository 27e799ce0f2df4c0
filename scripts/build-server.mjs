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

const result = await build({
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
  metafile: true,
})

// This bundle runs outside Next.js: a module of Next's own (next/headers, next/server…) would
// fail at start-up in production only. Fail the build instead.
const nextImports = Object.values(result.metafile.outputs)
  .flatMap((output) => output.imports)
  .filter((entry) => entry.external && /^next(\/|$)/.test(entry.path))
  .map((entry) => entry.path)
if (nextImports.length > 0) {
  console.error(
    `dist/server/serve-node-route.mjs must not import Next.js modules: ${[...new Set(nextImports)].join(', ')}`,
  )
  process.exit(1)
}
