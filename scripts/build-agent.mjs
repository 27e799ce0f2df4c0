// Builds the browser agent: public/agent.js (IIFE, minified, for <script> tags) and
// dist/agent/index.mjs (ESM, for bundlers). Prints the gzipped size of the script.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
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

// Type declarations for the ESM entry, derived from the sources (never written by hand).
const types = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.agent.json'], {
  stdio: 'inherit',
})
if (types.status !== 0) process.exit(types.status ?? 1)

const bytes = readFileSync('public/agent.js')
console.log(
  `agent: public/agent.js ${(bytes.length / 1024).toFixed(1)} KB, ${(gzipSync(bytes).length / 1024).toFixed(2)} KB gz`,
)
