// `npm start`: builds once when there is no production build yet, then serves it (scripts/serve.mjs).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

process.env.NEXT_TELEMETRY_DISABLED = '1'

if (!['.next/BUILD_ID', 'public/agent.js', 'dist/server/serve-node-route.mjs'].every(existsSync)) {
  console.log('No production build yet: building Tessera (about a minute, once).')
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

await import('./serve.mjs')
