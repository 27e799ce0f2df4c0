ALTER TABLE "events" ADD COLUMN "asn" integer;--> statement-breakpoint
CREATE INDEX "events_asn_created" ON "events" USING btree ("asn","created_at");--> statement-breakpoint
-- The last day of events get their AS number from the stored ipInfo signal: matching counts the
-- visitors of an AS over a day.
-- AS numbers beyond 2^31 - 1 are private-use or reserved (4200000000 and up): they mean no operator.
UPDATE "events" SET "asn" = ("signals"->'ipInfo'->'result'->>'asn')::numeric::integer
WHERE jsonb_typeof("signals"->'ipInfo'->'result'->'asn') = 'number'
  AND ("signals"->'ipInfo'->'result'->>'asn')::numeric BETWEEN 1 AND 2147483647
  AND "created_at" > now() - interval '1 day';
