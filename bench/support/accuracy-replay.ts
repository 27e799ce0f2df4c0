// Record and replay for bench:accuracy. A full run takes most of an hour of browser launches; what
// Tessera saw in them (each visit's components and address) is kept with BENCH_RECORD=<file>, and
// BENCH_REPLAY=<file> sends the same requests again, in the same phases and order, through
// identifyVisitor on an in-memory database: a change to matching is re-measured in seconds on
// real browsers' values. The peers' IDs are the recorded ones (they keep no state). A replay is a
// development aid; the figures to report come from a run with browsers.
import { readFileSync, writeFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import type { ComponentResult } from '../../src/contracts/identify'
import { openDatabase, queryRows } from '../../src/server/db/client'
import { identifyVisitor } from '../../src/server/identification/identify-visitor'
import type { Profile } from './accuracy-corpus'
import type { Recorded } from './accuracy-output'

export interface Recording {
  profiles: Profile[]
  twins: [Profile, Profile][]
  recorded: Recorded[]
  chromeMajor: number
}

export function saveRecording(file: string, recording: Recording) {
  writeFileSync(file, JSON.stringify(recording))
}

export function loadRecording(file: string): Recording {
  return JSON.parse(readFileSync(file, 'utf8')) as Recording
}

const userAgentOf = (entry: Recorded): string | null => {
  const component = entry.visit.components.userAgent as { value?: unknown } | undefined
  return typeof component?.value === 'string' ? component.value : null
}

/**
 * Replays a recording's Tessera visits: each storage-gone scenario, and the storage-kept phase, on
 * a database holding only the first visits (as the bench's snapshot does). Kept visits present the
 * token their profile's first visit got. Returns the recording with Tessera's answers replaced.
 */
export async function replay(recording: Recording): Promise<Recorded[]> {
  const first = recording.recorded.filter((entry) => entry.phase === 'first')
  const later = recording.recorded.filter((entry) => entry.phase !== 'first')
  const groups = new Map<string, Recorded[]>()
  for (const entry of later) {
    const key = `${entry.phase}:${entry.phase === 'kept' ? 'kept' : entry.scenario}`
    groups.set(key, [...(groups.get(key) ?? []), entry])
  }
  const replayed: Recorded[] = []
  let firstAnswers: Recorded[] = []
  for (const group of [...groups.values()]) {
    const handle = await openDatabase({ dataDir: 'memory://' })
    try {
      const tokens = new Map<string, string>()
      const run = async (entry: Recorded, token?: string): Promise<Recorded> => {
        const answer = await identifyVisitor({
          db: handle.db,
          input: { components: entry.visit.components as Record<string, ComponentResult> },
          context: { ip: entry.state.address, userAgent: userAgentOf(entry), cookieToken: token },
        })
        if (entry.phase === 'first') tokens.set(entry.profile.name, answer.storedToken)
        return {
          ...entry,
          visit: {
            ...entry.visit,
            visitorId: answer.visitorId,
            requestId: answer.requestId,
            confidence: answer.confidence.score,
          },
        }
      }
      const firsts: Recorded[] = []
      for (const entry of first) firsts.push(await run(entry))
      if (firstAnswers.length === 0) firstAnswers = firsts
      // Each database gives its first visits new IDs: name them as the first database did.
      const canonical = new Map(
        firsts.map((entry, index) => [entry.visit.visitorId, firstAnswers[index]?.visit.visitorId ?? '']),
      )
      for (const entry of group) {
        const answer = await run(entry, entry.phase === 'kept' ? tokens.get(entry.profile.name) : undefined)
        const visitorId = canonical.get(answer.visit.visitorId) ?? answer.visit.visitorId
        replayed.push({ ...answer, visit: { ...answer.visit, visitorId } })
      }
      const events = await queryRows<{ request_id: string; ip: string | null; method: string }>(
        handle.db,
        sql`select request_id, ip, method from events`,
      )
      const byRequest = new Map(events.map((row) => [row.request_id, { ip: row.ip, method: row.method }]))
      for (const entry of [...firstAnswers, ...replayed]) {
        entry.event = byRequest.get(entry.visit.requestId) ?? entry.event
      }
    } finally {
      await handle.close()
    }
  }
  return [...firstAnswers, ...replayed]
}
