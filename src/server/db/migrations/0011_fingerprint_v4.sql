CREATE TABLE "sealing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "suspect" boolean;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "format" text DEFAULT 'tessera' NOT NULL;--> statement-breakpoint
ALTER TABLE "sealing_keys" ADD CONSTRAINT "sealing_keys_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sealing_keys_site_created" ON "sealing_keys" USING btree ("site_id","created_at");--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_format" CHECK ("webhooks"."format" in ('tessera', 'fingerprint-v4'));--> statement-breakpoint
-- An event's address is what X-Forwarded-For said, so it may not parse as inet; a search by IP range
-- reads such a one as NULL instead of failing (PostgreSQL 15 has no pg_input_is_valid).
CREATE FUNCTION tessera_try_inet(value text) RETURNS inet LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN value::inet;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;
