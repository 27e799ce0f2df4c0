DROP INDEX "events_ip";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "network" text;--> statement-breakpoint
CREATE INDEX "events_ip_created" ON "events" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "events_network_created" ON "events" USING btree ("network","created_at");--> statement-breakpoint
-- The last 30 days of events get their network (network-of.ts: the /24 or the /56) for the console's
-- network look-up and ipVelocity; an address that does not parse (tessera_try_inet, 0011), or an
-- IPv4-mapped one, keeps none.
WITH "parsed" AS (
  SELECT "request_id", tessera_try_inet("ip") AS "address" FROM "events"
  WHERE "ip" IS NOT NULL AND lower("ip") NOT LIKE '::ffff:%' AND "created_at" > now() - interval '30 days')
UPDATE "events" SET "network" = network(set_masklen("parsed"."address",
    CASE family("parsed"."address") WHEN 4 THEN 24 ELSE 56 END))::text
FROM "parsed" WHERE "events"."request_id" = "parsed"."request_id" AND "parsed"."address" IS NOT NULL;
