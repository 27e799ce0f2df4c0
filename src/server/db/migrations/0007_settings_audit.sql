CREATE TABLE "settings_audit" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"operator" text NOT NULL,
	"before" jsonb,
	"after" jsonb NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
