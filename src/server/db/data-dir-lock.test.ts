import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from './client'
import { LOCK_FILE, lockDataDir } from './data-dir-lock'

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

describe('the embedded database directory lock', () => {
  it('refuses a second opener while the first holds it, naming the holder, and lets go on release', () => {
    const dir = freshDir()
    const release = lockDataDir(dir)
    expect(() => lockDataDir(dir)).toThrow(`in use by another Tessera process (pid ${process.pid})`)
    release()
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false)
    lockDataDir(dir)()
  })

  it('takes over a lock left by a process that is gone, or one the crash left unreadable', () => {
    const dir = freshDir()
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), started: null }))
    const release = lockDataDir(dir)
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid)
    release()
    writeFileSync(path.join(dir, LOCK_FILE), '{"pi')
    lockDataDir(dir)()
  })

  it('takes over a lock whose pid now belongs to another process (a restarted container reuses pids)', () => {
    const dir = freshDir()
    // This very process, as if started at another time: the pid runs, but not as the holder.
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, started: '1' }))
    if (!existsSync(`/proc/${process.pid}/stat`)) return
    lockDataDir(dir)()
  })

  it('keeps a second PGlite off a directory in use, and lets it open once the first is closed', async () => {
    const dir = path.join(freshDir(), 'db')
    const first = await openDatabase({ dataDir: dir })
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by another Tessera process/)
    await first.close()
    const second = await openDatabase({ dataDir: dir })
    await second.close()
  })
})
