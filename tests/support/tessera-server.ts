import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

export interface RunningServer {
  url: string
  logFile: string
  dataDir: string
  /** PID of the node process that serves (no wrapper in between). */
  pid: number
  stop(): Promise<void>
  /** kill -9 of the server (its whole process group when started with `ownProcessGroup`). */
  crash(): Promise<void>
  /** Resolves when the server's process ends, with its exit code (null when a signal ended it). */
  exited: Promise<number | null>
}

/** Throws unless `npm run build` has produced both the Next.js build and the identify front's bundle. */
export function assertProductionBuild() {
  if (!existsSync('.next/BUILD_ID') || !existsSync('dist/server/serve-node-route.mjs'))
    throw new Error('No production build found: run `npm run build` first.')
}

/** Starts scripts/serve.mjs (the production build) on its own data directory and waits until it is healthy. */
export async function startTesseraServer(options: {
  port: number
  env?: Record<string, string>
  dataDir?: string
  /** Runs the server in a process group of its own, so that `crash()` kills everything it started. */
  ownProcessGroup?: boolean
}): Promise<RunningServer> {
  assertProductionBuild()
  // Another server on the port would answer the health check in place of ours.
  await assertPortFree(options.port)
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tessera-e2e-'))
  const logFile = path.join(dataDir, '..', `${path.basename(dataDir)}.log`)
  const log = createWriteStream(logFile, { flags: 'a' })
  const child: ChildProcess = spawn(process.execPath, ['scripts/serve.mjs'], {
    env: {
      ...process.env,
      PORT: String(options.port),
      TESSERA_HOST: '127.0.0.1',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      TESSERA_DATA_DIR: path.join(dataDir, 'db'),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup === true,
  })
  const pid = child.pid
  if (pid === undefined) throw new Error('Tessera could not be spawned')
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  child.stdout?.pipe(log)
  child.stderr?.pipe(log)
  const url = `http://127.0.0.1:${options.port}`
  const deadline = Date.now() + 60_000
  while (true) {
    if (child.exitCode !== null)
      throw new Error(`Tessera exited early (code ${child.exitCode}); see ${logFile}`)
    try {
      const response = await fetch(`${url}/api/health`)
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running behind the caller's back (it would hold the port and the CPU).
      child.kill('SIGKILL')
      throw new Error(`Tessera did not become healthy in 60 s; see ${logFile}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return {
    url,
    logFile,
    dataDir,
    pid,
    exited,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      log.end()
    },
    async crash() {
      if (child.exitCode !== null || child.signalCode !== null) return
      if (options.ownProcessGroup) process.kill(-pid, 'SIGKILL')
      else child.kill('SIGKILL')
      await exited
      log.end()
    },
  }
}

export function removeServerFiles(server: RunningServer) {
  rmSync(server.dataDir, { recursive: true, force: true })
  rmSync(server.logFile, { force: true })
}

function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', () => reject(new Error(`Port ${port} is already in use; set another test port.`)))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()))
  })
}
