import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export interface ThrowawayPostgres {
  /** Admin URL (user postgres, database postgres). */
  url: string
  /** Fast shutdown, then the files are removed. */
  stop(): void
}

/** The newest PostgreSQL server's bin folder on this machine (Debian layout), if any. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a))
  return versions.map((version) => path.join(root, version, 'bin')).find((bin) => existsSync(`${bin}/initdb`))
}

/**
 * Starts a fresh PostgreSQL server in a temporary folder on a loopback port.
 * As root the server runs as the `postgres` user (initdb refuses root).
 */
export function startThrowawayPostgres({
  bin,
  port,
  fsync = false,
}: {
  bin: string
  port: number
  /** Off for tests (speed); on where a benchmark measures durability. */
  fsync?: boolean
}): ThrowawayPostgres {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-pg-'))
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const uid = execFileSync('id', ['-u', 'postgres']).toString().trim()
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim()
    chownSync(dir, Number(uid), Number(gid))
  }
  const run = (command: string, args: string[]) => {
    const full = asRoot ? ['-u', 'postgres', '--', `${bin}/${command}`, ...args] : args
    const result = spawnSync(asRoot ? 'runuser' : `${bin}/${command}`, full, { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`)
  }
  run('initdb', ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'])
  try {
    run('pg_ctl', [
      '-D',
      `${dir}/data`,
      '-w',
      '-l',
      `${dir}/server.log`,
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=${fsync ? 'on' : 'off'}`,
      'start',
    ])
  } catch (error) {
    // Say why (the port in use, most often), and leave no folder behind.
    const log = existsSync(`${dir}/server.log`) ? readFileSync(`${dir}/server.log`, 'utf8') : ''
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`${(error as Error).message}\n${log.trim().split('\n').slice(-4).join('\n')}`)
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      run('pg_ctl', ['-D', `${dir}/data`, '-w', '-m', 'fast', 'stop'])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
