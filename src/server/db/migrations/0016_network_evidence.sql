ALTER TABLE "events" ADD COLUMN "asn" integer;--> statement-breakpoint
CREATE INDEX "events_asn_created" ON "events" USING btree ("asn","created_at");--> statement-breakpoint
-- The last day of events get their AS number from the stored ipInfo signal: matching counts the
-- visitors of an AS over a day.
UPDATE "events" SET "asn" = ("signals"->'ipInfo'->'result'->>'asn')::integer
WHERE jsonb_typeof("signals"->'ipInfo'->'result'->'asn') = 'number' AND "created_at" > now() - interval '1 day';
