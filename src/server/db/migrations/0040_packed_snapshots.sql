-- Component snapshots packed by the server (packed-json.ts against COMPONENTS_DICTIONARY): about 700
-- bytes kept in the row, where the jsonb took about 1.5 KB compressed out of line (issue 28). A snapshot
-- stored before keeps its JSON text, which reads as itself; its digest stays what it was, and the
-- server makes the same digest of the same values (jsonb-text.ts), so returning devices reuse it.
-- Digests, durations and the components with their durations are now the server's to make: the SQL
-- that made them goes.
ALTER TABLE "component_snapshots" ALTER COLUMN "components" SET DATA TYPE bytea USING convert_to("components"::text, 'UTF8');--> statement-breakpoint
DROP FUNCTION tessera_components(jsonb, double precision[]);--> statement-breakpoint
DROP FUNCTION tessera_snapshot(jsonb);--> statement-breakpoint
DROP FUNCTION tessera_snapshot_digest(jsonb);--> statement-breakpoint
DROP FUNCTION tessera_durations(jsonb);
