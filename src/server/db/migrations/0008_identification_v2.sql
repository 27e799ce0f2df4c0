CREATE TABLE "facet_changes" (
	"facet" text PRIMARY KEY NOT NULL,
	"observed" integer DEFAULT 0 NOT NULL,
	"changed" integer DEFAULT 0 NOT NULL,
	"close" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "evidence" jsonb;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "browser_id" text;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "parts" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "previous" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "events_browser" ON "events" USING btree ("browser_id");