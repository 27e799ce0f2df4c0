import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from './client'
import { LOCK_FILE, lockDataDir } from './lock-data-dir'

const dirs: string[] = []
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tessera-lock-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** The pid of a process that has exited: a lock it left behind is stale. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(child.stdout.toString())
}
const holderOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid
const leave = (dir: string, text: string) => writeFileSync(path.join(dir, LOCK_FILE), text)

describe('the embedded database directory lock', () => {
  it('refuses a second opener in this process while the first holds it, and lets go on release', () => {
    const dir = freshDir()
    const release = lockDataDir(dir)
    expect(() => lockDataDir(dir)).toThrow('is in use by this process already')
    release()
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false)
    lockDataDir(dir)()
    // Nothing but the lock's own file is ever left in the directory.
    expect(spawnSync('ls', ['-A', dir]).stdout.toString()).toBe('')
  })

  it('refuses an opener in another process, naming the holder', async () => {
    const dir = freshDir()
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'])
    try {
      await new Promise((resolve) => holder.once('spawn', resolve))
      leave(dir, JSON.stringify({ pid: holder.pid, started: null }))
      expect(() => lockDataDir(dir)).toThrow(`in use by another Tessera process (pid ${holder.pid})`)
      expect(holderOf(dir)).toBe(holder.pid)
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('takes over a lock left by a process that is gone, or a torn one once it is old', () => {
    const dir = freshDir()
    leave(dir, JSON.stringify({ pid: deadPid(), started: null }))
    const release = lockDataDir(dir)
    expect(holderOf(dir)).toBe(process.pid)
    release()
    // Torn (a crash while it was written): held while fresh, taken over once old.
    leave(dir, '{"pi')
    expect(() => lockDataDir(dir)).toThrow('in use by another Tessera process.')
    const old = new Date(Date.now() - 60_000)
    utimesSync(path.join(dir, LOCK_FILE), old, old)
    const again = lockDataDir(dir)
    expect(holderOf(dir)).toBe(process.pid)
    again()
  })

  it.runIf(existsSync('/proc/self/stat'))(
    'takes over a lock whose pid now belongs to another process (a restarted container reuses pids)',
    () => {
      const dir = freshDir()
      // This very process, as if started at another time: the pid runs, but not as the holder.
      leave(dir, JSON.stringify({ pid: process.pid, started: '1' }))
      lockDataDir(dir)()
    },
  )

  it('keeps a second PGlite off a directory in use, and lets it open once the first is closed', async () => {
    const dir = path.join(freshDir(), 'db')
    const first = await openDatabase({ dataDir: dir })
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/is in use by this process already/)
    await first.close()
    const second = await openDatabase({ dataDir: dir })
    await second.close()
  })
})
