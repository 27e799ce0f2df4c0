import { randomUUID } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** The lock file inside an embedded database's directory, as PostgreSQL keeps postmaster.pid. */
export const LOCK_FILE = 'tessera.lock'
/** A lock file that cannot be read is taken for a live one until it is this old (a torn write by a crash). */
const UNREADABLE_GRACE_MS = 10_000
/** Takeovers of a stale lock tried before giving up (each lost only to another opener). */
const ATTEMPTS = 5

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
    // EPERM: a process of another user has that pid; its start time still tells whether it is the holder.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const now = startTime(pid)
  return started === null || now === null || now === started
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code

/** The holder a lock file names; 'gone' when it no longer exists; 'unreadable' when it names none. */
function readHolder(file: string): Holder | 'gone' | 'unreadable' {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'gone'
    throw error
  }
  try {
    const { pid, started } = JSON.parse(text) as Partial<Holder>
    return Number.isInteger(pid) && (pid ?? 0) > 0
      ? { pid: pid as number, started: started ?? null }
      : 'unreadable'
  } catch {
    return 'unreadable'
  }
}

/** The holder of a lock file that still holds it: a running process, or a torn file young enough to be one being written. */
function liveHolder(file: string): Holder | 'unreadable' | undefined {
  const holder = readHolder(file)
  if (holder === 'gone') return undefined
  if (holder !== 'unreadable') return isRunning(holder) ? holder : undefined
  try {
    return Date.now() - statSync(file).mtimeMs < UNREADABLE_GRACE_MS ? holder : undefined
  } catch {
    return undefined
  }
}

/** Puts the whole lock file in place, or fails with EEXIST; where hard links are not supported, creates it exclusively. */
function place(draft: string, file: string) {
  try {
    linkSync(draft, file)
  } catch (error) {
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(errorCode(error) ?? '')) throw error
    // A torn write here reads as unreadable, which holds for UNREADABLE_GRACE_MS.
    writeFileSync(file, readFileSync(draft), { flag: 'wx' })
  }
}

function inUse(dataDir: string, holder: Holder | 'unreadable') {
  const who =
    holder === 'unreadable'
      ? 'another Tessera process'
      : holder.pid === process.pid
        ? 'this process already'
        : `another Tessera process (pid ${holder.pid})`
  return new Error(
    `The embedded database in ${dataDir} is in use by ${who}. Stop it, or give this one its own TESSERA_DATA_DIR.`,
  )
}

/**
 * Takes the embedded database's directory for this process. Two PGlite instances on one directory
 * each run their own PostgreSQL over the same files and corrupt them (a second `npm start` with
 * another PORT did it), so a second opener, in this process or another, is refused. The lock file
 * appears whole or not at all (written aside, then linked into place). A lock left by a process that
 * is gone (killed, crashed; its pid reused by another since, told apart by its start time) is moved
 * aside and checked again before it is dropped, so two openers taking it over at once cannot both
 * win. Returns the release.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, LOCK_FILE)
  const mine: Holder = { pid: process.pid, started: startTime(process.pid) }
  const draft = `${file}.${randomUUID()}`
  writeFileSync(draft, JSON.stringify(mine))
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        place(draft, file)
        break
      } catch (error) {
        if (errorCode(error) !== 'EEXIST' || attempt >= ATTEMPTS) throw error
      }
      const holder = liveHolder(file)
      if (holder) throw inUse(dataDir, holder)
      // Stale: moved aside under a name of ours, then read again (another opener may have replaced it).
      const aside = `${file}.${randomUUID()}`
      try {
        renameSync(file, aside)
      } catch (error) {
        if (errorCode(error) === 'ENOENT') continue
        throw error
      }
      const moved = liveHolder(aside)
      if (moved) {
        // A live lock taken over by another opener meanwhile: put back (unless a third took its place), and refused.
        try {
          linkSync(aside, file)
        } catch {}
        unlinkSync(aside)
        throw inUse(dataDir, moved)
      }
      unlinkSync(aside)
    }
  } finally {
    unlinkSync(draft)
  }
  let released = false
  const release = () => {
    if (released) return
    released = true
    process.off('exit', release)
    try {
      const holder = readHolder(file)
      if (typeof holder === 'object' && holder.pid === process.pid) unlinkSync(file)
    } catch {
      // Not readable any more: nothing of this process's to remove.
    }
  }
  process.on('exit', release)
  return release
}
