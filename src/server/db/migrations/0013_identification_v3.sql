CREATE TABLE "facet_pairs" (
	"facet" text PRIMARY KEY NOT NULL,
	"pairs" real DEFAULT 0 NOT NULL,
	"differed" real DEFAULT 0 NOT NULL,
	"close" real DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "events_browser";--> statement-breakpoint
ALTER TABLE "facet_changes" ALTER COLUMN "observed" SET DATA TYPE real;--> statement-breakpoint
ALTER TABLE "facet_changes" ALTER COLUMN "changed" SET DATA TYPE real;--> statement-breakpoint
ALTER TABLE "facet_changes" ALTER COLUMN "close" SET DATA TYPE real;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "comeback" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "workspace" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "volatility" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "model_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "network" text;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "workspace" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "counted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "visitors_network_first_seen" ON "visitors" USING btree ("network","first_seen_at");--> statement-breakpoint
CREATE INDEX "events_browser" ON "events" USING btree ("browser_id","created_at");--> statement-breakpoint
-- Change rates learned before this took any token comeback at face value (forged ones included): start over.
DELETE FROM "facet_changes";
