-- Component snapshots (issue 28): an event keeps its components' durations and references what
-- was collected, stored once per distinct snapshot. The digest is the first 16 bytes of SHA-256 of
-- the snapshot's jsonb text, as a uuid, computed by the database on every write, so old and new rows
-- agree (SHA-256, not MD5: no one can make two component sets share a digest).
CREATE TABLE "component_snapshots" (
	"digest" uuid PRIMARY KEY NOT NULL,
	"components" jsonb NOT NULL
);
--> statement-breakpoint
-- The components without their durations (each entry is { value } or { error }).
CREATE FUNCTION tessera_snapshot(components jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(key, value - 'duration'), '{}'::jsonb) FROM jsonb_each(components)
$$;
--> statement-breakpoint
CREATE FUNCTION tessera_snapshot_digest(snapshot jsonb) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(substring(sha256(convert_to(snapshot::text, 'UTF8')) FROM 1 FOR 16), 'hex')::uuid
$$;
--> statement-breakpoint
-- Each component's duration, in jsonb's own key order (the snapshot has the same keys, so the same order).
CREATE FUNCTION tessera_durations(components jsonb) RETURNS double precision[] LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_agg((value->>'duration')::double precision ORDER BY ord), '{}')
  FROM jsonb_each(components) WITH ORDINALITY AS c(key, value, ord)
$$;
--> statement-breakpoint
-- The components as the agent sent them: the snapshot with each entry's duration put back.
CREATE FUNCTION tessera_components(snapshot jsonb, durations double precision[]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(key, CASE WHEN durations[ord] IS NULL THEN value
    ELSE value || jsonb_build_object('duration', durations[ord]) END), '{}'::jsonb)
  FROM jsonb_each(snapshot) WITH ORDINALITY AS c(key, value, ord)
$$;
--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "components" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "snapshot" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "durations" double precision[];--> statement-breakpoint
INSERT INTO "component_snapshots" ("digest", "components")
  SELECT DISTINCT ON (d) d, s
  FROM (SELECT tessera_snapshot("components") AS s FROM "events") AS snapshots,
    LATERAL (SELECT tessera_snapshot_digest(s) AS d) AS digest
  ORDER BY d;--> statement-breakpoint
UPDATE "events" SET "snapshot" = tessera_snapshot_digest(tessera_snapshot("components")),
  "durations" = tessera_durations("components"), "components" = NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "snapshot" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "durations" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_snapshot_component_snapshots_digest_fk" FOREIGN KEY ("snapshot") REFERENCES "public"."component_snapshots"("digest") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_snapshot" ON "events" USING btree ("snapshot");--> statement-breakpoint
-- The last event of a snapshot takes it along, whatever deleted the event (retention, forgetting,
-- a site's visitor deletion, a cascade). The candidates are locked first, in digest order (writes
-- check their references in that order too, so neither waits on the other crosswise), then deleted
-- by a statement of its own: it sees what another deleter of the same snapshot committed while this
-- one waited for the lock, so two deleters of a snapshot's last two events cannot both leave it. A
-- snapshot an identification came to reference meanwhile stays: the foreign key refuses its
-- deletion, and that refusal is caught.
-- On that refusal the snapshots are taken one by one, so the others still go.
CREATE FUNCTION tessera_drop_unused_snapshots() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unused uuid;
BEGIN
  PERFORM 1 FROM component_snapshots WHERE digest IN (SELECT snapshot FROM gone) ORDER BY digest FOR UPDATE;
  BEGIN
    DELETE FROM component_snapshots s
    WHERE s.digest IN (SELECT DISTINCT snapshot FROM gone)
      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.snapshot = s.digest);
  EXCEPTION WHEN foreign_key_violation THEN
    FOR unused IN SELECT DISTINCT snapshot FROM gone LOOP
      BEGIN
        DELETE FROM component_snapshots s
        WHERE s.digest = unused AND NOT EXISTS (SELECT 1 FROM events e WHERE e.snapshot = s.digest);
      EXCEPTION WHEN foreign_key_violation THEN
        NULL;
      END;
    END LOOP;
  END;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "events_drop_unused_snapshots" AFTER DELETE ON "events"
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION tessera_drop_unused_snapshots();
