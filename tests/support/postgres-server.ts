import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL server, or '' when none could be started. */
    postgresUrl: string
  }
}

const PORT = Number(process.env.TESSERA_TEST_PG_PORT ?? 54_329)

function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  return versions.map((version) => path.join(root, version, 'bin')).find((bin) => existsSync(`${bin}/initdb`))
}

/**
 * Starts a throwaway PostgreSQL server on a loopback port for the storage tests and stops it after.
 * As root the server runs as the `postgres` user (initdb refuses root).
 */
export default function setup(project: TestProject) {
  if (process.env.TESSERA_TEST_POSTGRES_URL) {
    project.provide('postgresUrl', process.env.TESSERA_TEST_POSTGRES_URL)
    return
  }
  const bin = findPostgresBin()
  if (!bin) {
    if (process.env.CI)
      throw new Error('PostgreSQL server binaries not found; install the postgresql package.')
    console.warn('PostgreSQL not found: the Postgres storage tests will be skipped.')
    project.provide('postgresUrl', '')
    return
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-pg-'))
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres']).toString().trim()
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim()
    chownSync(dir, Number(ids), Number(gid))
  }
  const run = (command: string, args: string[]) => {
    const full = asRoot ? ['-u', 'postgres', '--', `${bin}/${command}`, ...args] : args
    const result = spawnSync(asRoot ? 'runuser' : `${bin}/${command}`, full, { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`)
  }
  run('initdb', ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'])
  run('pg_ctl', [
    '-D',
    `${dir}/data`,
    '-w',
    '-l',
    `${dir}/server.log`,
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${PORT} -k ${dir} -c fsync=off`,
    'start',
  ])
  project.provide('postgresUrl', `postgres://postgres@127.0.0.1:${PORT}/postgres`)
  return () => {
    run('pg_ctl', ['-D', `${dir}/data`, '-w', '-m', 'fast', 'stop'])
    rmSync(dir, { recursive: true, force: true })
  }
}
