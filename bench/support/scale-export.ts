// How the console's export holds up on a large table: time to the first byte (what the operator
// waits before the download starts), rows a second to the end, and the app server's resident
// memory while it streams. Memory is read from /proc/<pid>/status every 50 ms; a reader that
// pauses after the first chunk shows whether the server waits for it (backpressure) or reads the
// whole table into memory meanwhile: its memory is also read on its own over the pause (a server
// that kept reading would grow by the rows it read ahead, at several thousand a second).
import { readFileSync } from 'node:fs'

export interface ExportRun {
  name: string
  rows: number
  bytes: number
  firstByteMs: number
  seconds: number
  /** Resident memory of the server just before the export, and its highest value during it. */
  rssBeforeMb: number
  rssPeakMb: number
  /** While the reader paused: the server's memory when it began, and its highest value through it. */
  pause?: { seconds: number; rssStartMb: number; rssPeakMb: number; restSeconds: number }
}

/** VmRSS of a process in MB; undefined off Linux or once it has exited. */
function residentMb(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)
    return line ? Number(line[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

export async function timeExport({
  url,
  path,
  cookie,
  pid,
  name,
  pauseMs = 0,
}: {
  url: string
  path: string
  cookie: string
  pid: number
  name: string
  /** How long the reader stops after the first chunk (a slow disk or network on the operator's side). */
  pauseMs?: number
}): Promise<ExportRun> {
  // Let the collector settle what earlier answers left behind, so "before" is the server at rest.
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  const rssBeforeMb = residentMb(pid) ?? 0
  let rssPeakMb = rssBeforeMb
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, residentMb(pid) ?? 0)
  }, 50)
  try {
    const started = performance.now()
    const response = await fetch(`${url}${path}`, { headers: { cookie } })
    if (!response.ok || !response.body)
      throw new Error(`${name}: ${path} answered ${response.status} ${await response.text()}`)
    const reader = response.body.getReader()
    let firstByteMs = 0
    let bytes = 0
    let newlines = 0
    let pause: ExportRun['pause']
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (bytes === 0) {
        firstByteMs = performance.now() - started
        if (pauseMs > 0) {
          const rssStartMb = residentMb(pid) ?? 0
          let pausePeakMb = rssStartMb
          const pauseSampler = setInterval(() => {
            pausePeakMb = Math.max(pausePeakMb, residentMb(pid) ?? 0)
          }, 50)
          await new Promise((resolve) => setTimeout(resolve, pauseMs))
          clearInterval(pauseSampler)
          pause = {
            seconds: pauseMs / 1000,
            rssStartMb,
            rssPeakMb: pausePeakMb,
            restSeconds: performance.now(),
          }
        }
      }
      bytes += value.byteLength
      for (const byte of value) if (byte === 10) newlines++
    }
    const seconds = (performance.now() - started) / 1000
    // How long the rest took once the reader came back: as long as straight through if the server
    // waited, next to nothing if it had read ahead.
    if (pause) pause.restSeconds = (performance.now() - pause.restSeconds) / 1000
    // A CSV line per record after the header (no cell the loader writes holds a line break).
    return {
      name,
      rows: Math.max(0, newlines - 1),
      bytes,
      firstByteMs,
      seconds,
      rssBeforeMb,
      rssPeakMb,
      pause,
    }
  } finally {
    clearInterval(sampler)
  }
}
