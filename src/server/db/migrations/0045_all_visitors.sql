ALTER TABLE "component_stats" ADD COLUMN "all_visitors" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every stored visitor holds its values: those counted already, then those beyond their network's budget.
UPDATE "component_stats" SET "all_visitors" = "visitors";--> statement-breakpoint
INSERT INTO "component_stats" ("component", "digest", "visitors", "all_visitors")
  SELECT p.component, p.digest, 0, count(*) FROM "visitors" v, jsonb_each_text(v.profile) AS p(component, digest)
  WHERE NOT v.counted GROUP BY p.component, p.digest
  ON CONFLICT ("component", "digest") DO UPDATE SET "all_visitors" = "component_stats"."all_visitors" + excluded."all_visitors";
