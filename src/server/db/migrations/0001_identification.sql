CREATE TABLE "events" (
	"request_id" text PRIMARY KEY NOT NULL,
	"visitor_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"visitor_found" boolean NOT NULL,
	"confidence" real NOT NULL,
	"method" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"url" text,
	"site_key" text,
	"tag" jsonb,
	"linked_id" text,
	"components" jsonb NOT NULL,
	"signals" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"suspect_score" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "component_stats" (
	"component" text NOT NULL,
	"digest" text NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "component_stats_component_digest_pk" PRIMARY KEY("component","digest")
);
--> statement-breakpoint
CREATE TABLE "visitor_keys" (
	"key" text NOT NULL,
	"visitor_id" text NOT NULL,
	CONSTRAINT "visitor_keys_key_visitor_id_pk" PRIMARY KEY("key","visitor_id")
);
--> statement-breakpoint
CREATE TABLE "visitors" (
	"id" text PRIMARY KEY NOT NULL,
	"profile" jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"visits" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_visitor_id_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_keys" ADD CONSTRAINT "visitor_keys_visitor_id_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_visitor_created" ON "events" USING btree ("visitor_id","created_at");--> statement-breakpoint
CREATE INDEX "events_created" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "visitor_keys_visitor" ON "visitor_keys" USING btree ("visitor_id");