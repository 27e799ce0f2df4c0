CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_site" ON "api_keys" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "events_site_created" ON "events" USING btree ("site_key","created_at");--> statement-breakpoint
CREATE INDEX "events_linked_id" ON "events" USING btree ("linked_id");--> statement-breakpoint
CREATE INDEX "events_ip" ON "events" USING btree ("ip");