CREATE TABLE "operator_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"role" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text,
	CONSTRAINT "operator_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "role" text DEFAULT 'analyst' NOT NULL;--> statement-breakpoint
-- The operators from before roles ran everything: they are owners.
UPDATE "operators" SET "role" = 'owner';
