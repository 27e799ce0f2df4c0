CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"visitor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "signup_decisions" (
	"request_id" text PRIMARY KEY NOT NULL,
	"visitor_id" text,
	"ip" text,
	"email" text NOT NULL,
	"outcome" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"challenge_solved" boolean DEFAULT false NOT NULL,
	"account_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "used_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "accounts_visitor_created" ON "accounts" USING btree ("visitor_id","created_at");--> statement-breakpoint
CREATE INDEX "signup_decisions_visitor_created" ON "signup_decisions" USING btree ("visitor_id","created_at");--> statement-breakpoint
CREATE INDEX "signup_decisions_ip_created" ON "signup_decisions" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "signup_decisions_created" ON "signup_decisions" USING btree ("created_at");