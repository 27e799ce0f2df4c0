CREATE TABLE "account_labels" (
	"account_id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"operator" text NOT NULL,
	"labelled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_labels" (
	"visitor_id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"operator" text NOT NULL,
	"labelled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signup_decisions" ADD COLUMN "review" text;--> statement-breakpoint
ALTER TABLE "signup_decisions" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "signup_decisions" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "deny_list" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "allow_list" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- The blocklist is the deny list's addresses and ranges (it is dropped in 0031).
UPDATE "sites" SET "deny_list" = "blocked_networks";--> statement-breakpoint
ALTER TABLE "visitor_labels" ADD CONSTRAINT "visitor_labels_visitor_id_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signup_decisions_outcome_created" ON "signup_decisions" USING btree ("outcome","created_at");--> statement-breakpoint
CREATE INDEX "signup_decisions_to_review" ON "signup_decisions" USING btree ("created_at") WHERE (outcome <> 'allow' or challenge_solved) and not (reasons @> '[{"rule":"existingAccount"}]'::jsonb) and "signup_decisions"."review" is null;