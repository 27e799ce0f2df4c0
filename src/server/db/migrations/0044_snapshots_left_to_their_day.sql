-- The delete trigger's look-up (is a snapshot still referenced by any event?) reads every day's
-- table of events: on PostgreSQL with 107 days its plan's start alone took 30-60 ms a statement,
-- even for a statement that deleted nothing. Retention's chunks of expired visitors each delete
-- their events of the cutoff's day, and paid that for every 200 visitors (about a third of the
-- pass's database time in bench:scale). They need none of it: every snapshot those events used was
-- last used on that day or later, and the pass's snapshot step deletes it once no stored event can
-- reference it (last used before the oldest stored event's day, component-snapshots.ts), by the next
-- day's pass at the latest, as the day's other events go. A transaction that sets
-- `tessera.snapshots_by_day` to 'on' leaves its deleted events' snapshots to that step; a statement
-- that deleted no event does no look-up at all.
CREATE OR REPLACE FUNCTION tessera_drop_unused_snapshots() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('tessera.snapshots_by_day', true), '') = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM tessera_delete_unused_snapshots(ARRAY(SELECT DISTINCT snapshot FROM gone WHERE snapshot IS NOT NULL));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION tessera_delete_unused_snapshots(candidates uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(candidates) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM component_snapshots WHERE digest = ANY (candidates) ORDER BY digest FOR UPDATE;
  DELETE FROM component_snapshots s
  WHERE s.digest = ANY (candidates) AND NOT EXISTS (SELECT 1 FROM events e WHERE e.snapshot = s.digest);
END
$$;
