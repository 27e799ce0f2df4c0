import { eq } from 'drizzle-orm'
import type { StoredSignals } from '@/contracts/signals'
import type { Database } from '@/server/db/client'
import { eventSignals } from '@/server/db/packed-signals'
import { events, flagsOf } from '@/server/db/schema'

/**
 * Changes a stored event's signals, with their flags: read as every reader does (eventSignals), written
 * packed whole (a statement that sets them alone cannot see the row they could leave out).
 */
export async function changeEventSignals(
  db: Database,
  requestId: string,
  change: (signals: StoredSignals) => StoredSignals,
): Promise<void> {
  const [event] = await db
    .select({ signals: eventSignals() })
    .from(events)
    .where(eq(events.requestId, requestId))
  if (!event) throw new Error(`No stored event ${requestId}.`)
  const signals = change(event.signals)
  await db
    .update(events)
    .set({ signals, flags: flagsOf(signals) })
    .where(eq(events.requestId, requestId))
}
