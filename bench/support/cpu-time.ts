// Where the CPU went while a bench drove load: the whole machine's busy time (/proc/stat), the app
// servers' own processes, the bench's PostgreSQL (its postmaster and the processes it started), and
// the bench process itself (the load generator). Linux only; elsewhere every figure is absent.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** The postmaster of the PostgreSQL whose data directory is `dataDirectory` (its postmaster.pid). */
export function postmasterOf(dataDirectory: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0])
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

export interface CpuSample {
  at: number
  machineBusy: number
  machineTotal: number
  cores: number
  servers: number
  postgres: number
  client: number
}

export interface CpuShare {
  /** Share of all cores busy over the window (0–1). */
  busy: number
  cores: number
  /** CPU milliseconds per answered request, by who spent them. */
  perRequest: { servers: number; postgres: number; client: number; other: number }
}

/** A process's fields after its name in /proc/<pid>/stat (its state is [0], its parent [1]). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

function processTicks(pid: number): number {
  const fields = statFields(pid)
  // utime, stime, cutime, cstime (fields 14–17 of the line; 11–14 after the name).
  return fields ? [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0) : 0
}

/** The postmaster and its children (backends, workers; those that exited count in its cutime). */
function postgresTicks(postmaster: number | undefined): number {
  if (!postmaster) return 0
  let total = processTicks(postmaster)
  for (const entry of readdirSync('/proc'))
    if (/^[0-9]+$/.test(entry) && statFields(Number(entry))?.[1] === String(postmaster))
      total += processTicks(Number(entry))
  return total
}

export function sampleCpu(serverPids: number[], postmaster?: number): CpuSample | undefined {
  try {
    const lines = readFileSync('/proc/stat', 'utf8').split('\n')
    const all = (lines[0] ?? '').split(/\s+/).slice(1).map(Number)
    const idle = (all[3] ?? 0) + (all[4] ?? 0)
    const total = all.slice(0, 8).reduce((sum, value) => sum + value, 0)
    const usage = process.cpuUsage()
    return {
      at: performance.now(),
      machineBusy: (total - idle) / TICKS_PER_SECOND,
      machineTotal: total / TICKS_PER_SECOND,
      cores: lines.filter((line) => /^cpu[0-9]+ /.test(line)).length,
      servers: serverPids.reduce((sum, pid) => sum + processTicks(pid), 0) / TICKS_PER_SECOND,
      postgres: postgresTicks(postmaster) / TICKS_PER_SECOND,
      client: (usage.user + usage.system) / 1e6,
    }
  } catch {
    return undefined
  }
}

/** The CPU spent between two samples, per request answered in between. */
export function cpuShare(before: CpuSample | undefined, after: CpuSample | undefined, requests: number) {
  if (!before || !after || requests <= 0) return undefined
  const spent = (key: 'servers' | 'postgres' | 'client') => after[key] - before[key]
  const busy = after.machineBusy - before.machineBusy
  const perRequest = (seconds: number) => (seconds * 1000) / requests
  return {
    busy: busy / Math.max(after.machineTotal - before.machineTotal, 0.001),
    cores: after.cores,
    perRequest: {
      servers: perRequest(spent('servers')),
      postgres: perRequest(spent('postgres')),
      client: perRequest(spent('client')),
      other: perRequest(Math.max(0, busy - spent('servers') - spent('postgres') - spent('client'))),
    },
  } satisfies CpuShare
}
