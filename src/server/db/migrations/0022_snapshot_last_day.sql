-- Each component snapshot keeps the latest UTC day an event referenced it (issue 28), so retention
-- deletes the snapshots no stored event can reference (last used before the oldest stored event's
-- day) by that column's index, instead of looking each one up in every day's table of events. The
-- foreign key from events goes: PostgreSQL checked it on every deleted snapshot by reading every
-- day's table, which made retention's cost grow with the days kept. What keeps a snapshot an event
-- is being written with is now the write's own lock on it: the write inserts the snapshot or, when
-- it is stored, moves its last day, an upsert that locks the row until the write commits; retention
-- and forgetting lock the snapshots they delete, in digest order as writes do, and look again once
-- they hold them (component-snapshots.ts).
ALTER TABLE "events" DROP CONSTRAINT "events_snapshot_component_snapshots_digest_fk";--> statement-breakpoint
ALTER TABLE "component_snapshots" ADD COLUMN "last_day" date DEFAULT ((now() at time zone 'UTC')::date) NOT NULL;--> statement-breakpoint
-- Stored snapshots take their latest event's day (one pass over the stored events at the upgrade).
UPDATE "component_snapshots" s SET "last_day" = latest.day
  FROM (SELECT "snapshot", (max("created_at") AT TIME ZONE 'UTC')::date AS day FROM "events" GROUP BY "snapshot") AS latest
  WHERE latest."snapshot" = s."digest" AND latest.day <> s."last_day";--> statement-breakpoint
CREATE INDEX "component_snapshots_last_day" ON "component_snapshots" USING btree ("last_day");--> statement-breakpoint
-- Deletes up to `chunk` snapshots last used before `before` and before the oldest stored event's
-- day (so no stored event references them), oldest first; returns how many it looked at (`seen`:
-- fewer than `chunk`, none is left) and how many it deleted. They are locked in digest order first,
-- then deleted by a statement of its own, which reads the bound again and sees what a write
-- committed meanwhile: one that moved a snapshot's last day, or wrote an older event, keeps it.
CREATE FUNCTION tessera_delete_expired_snapshots(before date, chunk integer, OUT seen integer, OUT deleted integer)
LANGUAGE plpgsql AS $$
DECLARE
  expired uuid[];
BEGIN
  expired := ARRAY(SELECT digest FROM component_snapshots
    WHERE last_day < least(before, (SELECT (min(created_at) AT TIME ZONE 'UTC')::date FROM events))
    ORDER BY last_day LIMIT chunk);
  PERFORM 1 FROM component_snapshots WHERE digest = ANY (expired) ORDER BY digest FOR UPDATE;
  DELETE FROM component_snapshots WHERE digest = ANY (expired)
    AND last_day < least(before, (SELECT (min(created_at) AT TIME ZONE 'UTC')::date FROM events));
  GET DIAGNOSTICS deleted = ROW_COUNT;
  seen := cardinality(expired);
END
$$;--> statement-breakpoint
-- What the delete trigger (forgetting, a visitor's deletion, retention on the embedded database)
-- does for a statement's rows: the snapshots among candidates no event references any more, locked
-- in digest order first, then deleted by a statement of its own that sees the events committed
-- meanwhile (a write referencing one holds it locked until it commits).
CREATE OR REPLACE FUNCTION tessera_delete_unused_snapshots(candidates uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM component_snapshots WHERE digest = ANY (candidates) ORDER BY digest FOR UPDATE;
  DELETE FROM component_snapshots s
  WHERE s.digest = ANY (candidates) AND NOT EXISTS (SELECT 1 FROM events e WHERE e.snapshot = s.digest);
END
$$;
