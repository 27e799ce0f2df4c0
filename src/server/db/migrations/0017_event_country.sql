ALTER TABLE "events" ADD COLUMN "country" text;--> statement-breakpoint
CREATE INDEX "events_country_created" ON "events" USING btree ("country","created_at");--> statement-breakpoint
-- The last day of events get their country from the stored ipInfo signal: matching counts the
-- visitors of a country over a day.
UPDATE "events" SET "country" = "signals"->'ipInfo'->'result'->>'countryCode'
WHERE jsonb_typeof("signals"->'ipInfo'->'result'->'countryCode') = 'string' AND "created_at" > now() - interval '1 day';
