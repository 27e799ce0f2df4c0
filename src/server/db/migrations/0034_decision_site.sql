ALTER TABLE "signup_decisions" ADD COLUMN "site_key" text;--> statement-breakpoint
-- Earlier decisions take their identification's site, where the event is still kept.
UPDATE "signup_decisions" AS d SET "site_key" = e."site_key" FROM "events" AS e WHERE e."request_id" = d."request_id";--> statement-breakpoint
CREATE INDEX "signup_decisions_site_created" ON "signup_decisions" USING btree ("site_key","created_at");