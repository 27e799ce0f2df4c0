DROP INDEX "signup_decisions_to_review";--> statement-breakpoint
ALTER TABLE "signup_decisions" ADD COLUMN "network" text;--> statement-breakpoint
ALTER TABLE "signup_decisions" ADD COLUMN "superseded_by" text;--> statement-breakpoint
CREATE INDEX "signup_decisions_network_created" ON "signup_decisions" USING btree ("network","created_at");--> statement-breakpoint
CREATE INDEX "signup_decisions_to_review" ON "signup_decisions" USING btree ("created_at") WHERE (outcome <> 'allow' or challenge_solved) and not (reasons @> '[{"rule":"existingAccount"}]'::jsonb) and superseded_by is null and "signup_decisions"."review" is null;--> statement-breakpoint
-- The attempts-from-an-address rule looks back 10 minutes: the last day's decisions get their
-- network as addressKey writes it (an IPv4 address, an IPv6 /64), older ones are never counted again.
UPDATE "signup_decisions" SET "network" = CASE
    WHEN family(tessera_try_inet("ip")) = 6 THEN host(network(set_masklen(tessera_try_inet("ip"), 64))) || '/64'
    ELSE host(tessera_try_inet("ip"))
  END
  WHERE "network" IS NULL AND "ip" IS NOT NULL AND "created_at" > now() - interval '1 day';
