// Builds the browser agent and the SDKs:
// - public/agent.js: the loader (IIFE, minified, for <script> tags); prints its gzipped size.
// - dist/agent/index.mjs: the agent as an ES module, for bundlers (`tessera/agent`).
// - dist/react/index.mjs: the React SDK (`tessera/react`), on top of dist/agent.
// - dist/node/index.mjs: the Node SDK (`tessera/server`).
// - dist/types/: their declarations, derived from the sources (never written by hand).
// - dist/package.json: the manifest of the SDK package, so `npm pack ./dist` makes a tarball an
//   integrator installs. Its own manifest, not the repository's: that one carries the server's
//   dependencies (Next.js, PGlite, argon2…), which an SDK user must not install.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const common = { bundle: true, minify: true, target: ['es2020'], legalComments: 'none', logLevel: 'warning' }

await build({ ...common, entryPoints: ['src/agent/browser.ts'], format: 'iife', outfile: 'public/agent.js' })
await build({
  ...common,
  entryPoints: ['src/agent/index.ts'],
  format: 'esm',
  outfile: 'dist/agent/index.mjs',
})

/** The React SDK imports the agent module beside it rather than bundling a second copy. */
const agentBeside = {
  name: 'agent-beside',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/\.\.\/agent$/ }, () => ({
      path: '../agent/index.mjs',
      external: true,
    }))
  },
}
await build({
  ...common,
  // Readable: integrators step through it in their own dev tools; their bundler minifies.
  minify: false,
  entryPoints: ['src/sdk/react/index.tsx'],
  format: 'esm',
  jsx: 'automatic',
  external: ['react', 'react/jsx-runtime'],
  plugins: [agentBeside],
  outfile: 'dist/react/index.mjs',
})
await build({
  ...common,
  minify: false,
  entryPoints: ['src/sdk/node/index.ts'],
  format: 'esm',
  platform: 'node',
  target: ['node18'],
  outfile: 'dist/node/index.mjs',
})

const types = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.agent.json'], {
  stdio: 'inherit',
})
if (types.status !== 0) process.exit(types.status ?? 1)
completeTypeImports('dist/types')

/**
 * tsc writes declarations with the sources' extensionless imports ('./cache', '../../agent'),
 * which TypeScript under `moduleResolution: node16/nodenext` refuses in an ES module package.
 * Each relative import becomes the file it names ('./cache.js', '../../agent/index.js').
 */
function completeTypeImports(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
    const file = path.join(entry.parentPath ?? entry.path, entry.name)
    const text = readFileSync(file, 'utf8').replace(
      /(from\s+|import\()(['"])(\.{1,2}\/[^'"]*)\2/g,
      (whole, lead, quote, specifier) => {
        const target = path.resolve(path.dirname(file), specifier)
        if (existsSync(`${target}.d.ts`)) return `${lead}${quote}${specifier}.js${quote}`
        if (existsSync(path.join(target, 'index.d.ts'))) return `${lead}${quote}${specifier}/index.js${quote}`
        return whole
      },
    )
    writeFileSync(file, text)
  }
}

const root = JSON.parse(readFileSync('package.json', 'utf8'))
const entry = (name, file) => ({ types: `./types/${name}/index.d.ts`, default: `./${file}/index.mjs` })
const manifest = {
  name: root.name,
  version: root.version,
  description: 'Tessera SDKs: the browser agent, React (useVisitorData) and Node (Server API, webhooks).',
  license: root.license,
  type: 'module',
  sideEffects: false,
  exports: {
    '.': entry('agent', 'agent'),
    './agent': entry('agent', 'agent'),
    './react': entry('sdk/react', 'react'),
    './server': entry('sdk/node', 'node'),
    './package.json': './package.json',
  },
  files: ['agent', 'react', 'node', 'types'],
  engines: { node: '>=18' },
  peerDependencies: { react: '>=18' },
  peerDependenciesMeta: { react: { optional: true } },
}
writeFileSync('dist/package.json', `${JSON.stringify(manifest, null, 2)}\n`)

const bytes = readFileSync('public/agent.js')
console.log(
  `agent: public/agent.js ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipSync(bytes).length / 1024).toFixed(2)} KB gz`,
)
