ALTER TABLE "operators" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "oidc_subject" text;--> statement-breakpoint
CREATE UNIQUE INDEX "operators_oidc_identity" ON "operators" USING btree ("oidc_issuer","oidc_subject");