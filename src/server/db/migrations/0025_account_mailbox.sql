ALTER TABLE "accounts" ADD COLUMN "mailbox" text;--> statement-breakpoint
CREATE INDEX "accounts_mailbox_created" ON "accounts" USING btree ("mailbox","created_at");--> statement-breakpoint
-- The inbox of every existing account, as mailbox-of.ts computes it: no +tag, no dots at Gmail.
UPDATE "accounts" SET "mailbox" = CASE
  WHEN split_part("email_normalised", '@', 2) IN ('gmail.com', 'googlemail.com')
    THEN replace(split_part(split_part("email_normalised", '@', 1), '+', 1), '.', '') || '@gmail.com'
  ELSE split_part(split_part("email_normalised", '@', 1), '+', 1) || '@' || split_part("email_normalised", '@', 2)
END
WHERE "email_normalised" IS NOT NULL;
