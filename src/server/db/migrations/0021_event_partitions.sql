-- Events by UTC day on PostgreSQL (issue 28): retention drops a whole day's table instead of
-- deleting its rows one by one. The embedded database keeps one plain table: the server calls
-- tessera_partition_events() on PostgreSQL only (client.ts), and every function below does nothing
-- while events is not partitioned. Day tables are named events_YYYYMMDD and are made a week ahead
-- (event-partitions.ts). There is no default partition: its rows could fall on any day, so with one
-- PostgreSQL could never read the days in order and stop early (a visitor's latest events, the
-- event before this one); a row no day table is there for is refused, and identify makes the day's
-- table and writes again.

-- The snapshots among candidates no event references any more, deleted: what the delete trigger
-- does for a statement's rows, and what dropping a day's table does for that day's. Candidates are
-- locked in digest order first (writes check their references in that order too), then deleted by a
-- statement of its own; a snapshot an identification came to reference meanwhile stays (the foreign
-- key refuses, and the refusal is caught: then they are taken one by one, so the others still go).
CREATE FUNCTION tessera_delete_unused_snapshots(candidates uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  unused uuid;
BEGIN
  PERFORM 1 FROM component_snapshots WHERE digest = ANY (candidates) ORDER BY digest FOR UPDATE;
  BEGIN
    DELETE FROM component_snapshots s
    WHERE s.digest = ANY (candidates) AND NOT EXISTS (SELECT 1 FROM events e WHERE e.snapshot = s.digest);
  EXCEPTION WHEN foreign_key_violation THEN
    FOREACH unused IN ARRAY candidates LOOP
      BEGIN
        DELETE FROM component_snapshots s
        WHERE s.digest = unused AND NOT EXISTS (SELECT 1 FROM events e WHERE e.snapshot = s.digest);
      EXCEPTION WHEN foreign_key_violation THEN
        NULL;
      END;
    END LOOP;
  END;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tessera_drop_unused_snapshots() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tessera_delete_unused_snapshots(ARRAY(SELECT DISTINCT snapshot FROM gone));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Creates the day tables from first to last (UTC days) that are missing: each is made beside events
-- and then attached, which locks events only against other schema changes, never against reads and
-- writes (creating it as a partition outright would lock them out while it waits). A day that an
-- older table covers is skipped (its rows stay where they are); so is one whose locks are not
-- granted within a few seconds (the next pass makes it: days are made a week ahead).
CREATE FUNCTION tessera_event_partitions(first date, last date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  day date;
  name text;
  made integer := 0;
BEGIN
  IF (SELECT relkind FROM pg_class WHERE oid = 'events'::regclass) <> 'p' THEN
    RETURN 0;
  END IF;
  PERFORM set_config('lock_timeout', '3s', true);
  FOR day IN SELECT generate_series(first, last, interval '1 day')::date LOOP
    name := 'events_' || to_char(day, 'YYYYMMDD');
    CONTINUE WHEN to_regclass(name) IS NOT NULL;
    BEGIN
      EXECUTE format('CREATE TABLE %I (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
      EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name,
        to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00', to_char(day + 1, 'YYYY-MM-DD') || ' 00:00:00+00');
      made := made + 1;
    EXCEPTION WHEN invalid_object_definition OR duplicate_table OR lock_not_available OR deadlock_detected THEN
      NULL;
    END;
  END LOOP;
  RETURN made;
END
$$;
--> statement-breakpoint
-- Turns a plain events table into one partitioned by UTC day, once, and makes the day tables from
-- yesterday to a week ahead (every start of a server calls it).
-- The rows already stored stay where they are, as one partition for every day up to the last one
-- they cover (events_before_partitioning: retention deletes its rows and drops it once empty), so
-- an upgrade moves no data; an empty table is simply replaced. Indexes, foreign keys and triggers
-- are carried over under their own names. It holds events while it checks the stored rows' days
-- and builds their new key: on a large table, the first start after the upgrade takes minutes.
CREATE FUNCTION tessera_partition_events() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  today date := (now() AT TIME ZONE 'UTC')::date;
  first_day date;
  index_definitions text[];
  foreign_keys text[][];
  definition text;
  item record;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('tessera_partition_events'));
  IF (SELECT relkind FROM pg_class WHERE oid = 'events'::regclass) = 'p' THEN
    PERFORM tessera_event_partitions(today - 1, today + 7);
    RETURN;
  END IF;
  LOCK TABLE events IN ACCESS EXCLUSIVE MODE;
  first_day := greatest(today, (SELECT (max(created_at) AT TIME ZONE 'UTC')::date + 1 FROM events));
  SELECT array_agg(pg_get_indexdef(i.indexrelid) ORDER BY c.relname) INTO index_definitions
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE i.indrelid = 'events'::regclass AND NOT i.indisprimary;
  SELECT array_agg(ARRAY[conname::text, pg_get_constraintdef(oid)] ORDER BY conname) INTO foreign_keys
  FROM pg_constraint WHERE conrelid = 'events'::regclass AND contype = 'f';

  ALTER TABLE events RENAME TO events_before_partitioning;
  DROP TRIGGER events_drop_unused_snapshots ON events_before_partitioning;
  DROP TRIGGER events_roll_up ON events_before_partitioning;
  FOR item IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = 'events_before_partitioning'::regclass LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', item.relname, 'before_partitioning_' || item.relname);
  END LOOP;

  CREATE TABLE events (LIKE events_before_partitioning INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
    PARTITION BY RANGE (created_at);
  ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (request_id, created_at);
  FOREACH definition IN ARRAY coalesce(index_definitions, '{}') LOOP
    EXECUTE definition;
  END LOOP;
  FOR i IN 1 .. coalesce(array_length(foreign_keys, 1), 0) LOOP
    EXECUTE format('ALTER TABLE events ADD CONSTRAINT %I %s', foreign_keys[i][1], foreign_keys[i][2]);
  END LOOP;
  CREATE TRIGGER events_drop_unused_snapshots AFTER DELETE ON events
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION tessera_drop_unused_snapshots();
  CREATE TRIGGER events_roll_up AFTER INSERT ON events
    REFERENCING NEW TABLE AS fresh FOR EACH STATEMENT EXECUTE FUNCTION tessera_roll_up_events();

  IF EXISTS (SELECT 1 FROM events_before_partitioning) THEN
    -- Its own key (request_id alone) gives way to the partitioned one, built on it as it attaches.
    EXECUTE format('ALTER TABLE events_before_partitioning DROP CONSTRAINT %I',
      (SELECT conname FROM pg_constraint WHERE conrelid = 'events_before_partitioning'::regclass AND contype = 'p'));
    EXECUTE format('ALTER TABLE events ATTACH PARTITION events_before_partitioning FOR VALUES FROM (MINVALUE) TO (%L)',
      to_char(first_day, 'YYYY-MM-DD') || ' 00:00:00+00');
  ELSE
    DROP TABLE events_before_partitioning;
    first_day := today - 1;
  END IF;
  PERFORM tessera_event_partitions(first_day, today + 7);
END
$$;
