import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import path from 'node:path'

/** The lock file inside an embedded database's directory, as PostgreSQL keeps postmaster.pid. */
export const LOCK_FILE = 'tessera.lock'

interface Holder {
  pid: number
  /** When the process started (/proc/<pid>/stat), so a pid reused after a crash is not taken for it. */
  started: string | null
}

/** A process's start time on Linux; null where /proc does not say (another system, a gone process). */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces and parentheses): the 20th is the start time.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

function isRunning({ pid, started }: Holder): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  const now = startTime(pid)
  return started === null || now === null || now === started
}

function readHolder(file: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>
    return typeof holder.pid === 'number' ? { pid: holder.pid, started: holder.started ?? null } : undefined
  } catch {
    return undefined
  }
}

/**
 * Takes the embedded database's directory for this process. Two PGlite instances on one directory
 * each run their own PostgreSQL over the same files and corrupt them (a second `npm start` with
 * another PORT did it), so a second opener, in this process or another, is refused with the
 * holder's pid. A lock left by a process that is gone (killed, crashed; its pid reused by another
 * since, told apart by its start time) is taken over. Returns the release.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, LOCK_FILE)
  const holder: Holder = { pid: process.pid, started: startTime(process.pid) }
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, JSON.stringify(holder))
      closeSync(fd)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
      const current = readHolder(file)
      if (current && isRunning(current))
        throw new Error(
          `The embedded database in ${dataDir} is in use by another Tessera process (pid ${current.pid}). ` +
            'Stop it, or give this one its own TESSERA_DATA_DIR.',
        )
      unlinkSync(file)
    }
  }
  let released = false
  const release = () => {
    if (released) return
    released = true
    process.off('exit', release)
    try {
      if (readHolder(file)?.pid === process.pid) unlinkSync(file)
    } catch {
      // Already gone: nothing to release.
    }
  }
  process.on('exit', release)
  return release
}
