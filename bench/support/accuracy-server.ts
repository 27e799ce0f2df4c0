// Tessera for bench:accuracy: the production server behind one trusted proxy (the bench's
// X-Forwarded-For is each profile's address), whose database can be saved after the first visits
// and put back before each scenario, and whose stored events are read back after each run.
import { cpSync, mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { unpackEvidence } from '../../src/server/db/packed-evidence'
import { type RunningServer, startTesseraServer } from '../../tests/support/tessera-server'

export interface StoredEvent {
  ip: string | null
  method: string
  /** How the server decided (events.evidence): what BENCH_DEBUG prints for a miss. */
  evidence: unknown
}

export class BenchServer {
  private running: RunningServer | undefined
  private readonly dataDir: string
  private readonly snapshotDir: string

  constructor(
    work: string,
    private readonly port: number,
  ) {
    this.dataDir = path.join(work, 'server')
    this.snapshotDir = path.join(work, 'snapshot')
    mkdirSync(this.dataDir, { recursive: true })
  }

  get url(): string {
    if (!this.running) throw new Error('The bench server is not running')
    return this.running.url
  }

  /** Starts the server unless it is running. */
  async start() {
    if (this.running) return
    this.running = await startTesseraServer({
      port: this.port,
      dataDir: this.dataDir,
      env: { TESSERA_LOG_LEVEL: 'warn', TESSERA_TRUSTED_PROXIES: '1' },
    })
  }

  /** Stops the server and returns the events it stored (request ID → address, method, evidence). */
  async stop(): Promise<Map<string, StoredEvent>> {
    if (!this.running) return new Map()
    await this.running.stop()
    this.running = undefined
    const client = await PGlite.create(this.databaseDir)
    try {
      const result = await client.query<{
        request_id: string
        ip: string | null
        method: string
        evidence: unknown
      }>('select request_id, ip, method, evidence from events')
      return new Map(
        result.rows.map((row) => [
          row.request_id,
          {
            ip: row.ip,
            method: row.method,
            evidence: row.evidence instanceof Uint8Array ? unpackEvidence(row.evidence) : null,
          },
        ]),
      )
    } finally {
      await client.close()
    }
  }

  /** Keeps the stopped server's database as it is now. */
  saveSnapshot() {
    cpSync(this.databaseDir, this.snapshotDir, { recursive: true })
  }

  /** Puts the saved database back (the server must be stopped). */
  restoreSnapshot() {
    rmSync(this.databaseDir, { recursive: true, force: true })
    cpSync(this.snapshotDir, this.databaseDir, { recursive: true })
  }

  private get databaseDir() {
    // startTesseraServer keeps the database in <dataDir>/db.
    return path.join(this.dataDir, 'db')
  }

  get logFile(): string {
    return path.join(path.dirname(this.dataDir), `${path.basename(this.dataDir)}.log`)
  }
}
