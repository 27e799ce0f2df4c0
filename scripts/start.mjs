// `npm start`: builds once when there is no production build yet, then serves it.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

process.env.NEXT_TELEMETRY_DISABLED = '1'

if (!existsSync('.next/BUILD_ID')) {
  console.log('No production build yet: building Tessera (about a minute, once).')
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const args = ['start', '-p', process.env.PORT ?? '3000']
if (process.env.HOSTNAME) args.push('-H', process.env.HOSTNAME)
const server = spawnSync('node_modules/.bin/next', args, { stdio: 'inherit' })
process.exit(server.status ?? 0)
