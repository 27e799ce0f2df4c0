ALTER TABLE "accounts" DROP CONSTRAINT "accounts_email_unique";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "email_normalised" text;--> statement-breakpoint
-- The earliest account of each address (trimmed, lower-cased) takes it; a later one that differed
-- only in case keeps NULL, so existing duplicates stay as records and the constraint can be built.
UPDATE "accounts" SET "email_normalised" = "ranked"."normalised"
FROM (
  SELECT "id", lower(btrim("email")) AS "normalised",
    row_number() OVER (PARTITION BY lower(btrim("email")) ORDER BY "created_at", "id") AS "rank"
  FROM "accounts"
) AS "ranked"
WHERE "accounts"."id" = "ranked"."id" AND "ranked"."rank" = 1;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_email_normalised" UNIQUE("email_normalised");
