CREATE TABLE "event_rollups" (
	"site_key" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"network_type" text NOT NULL,
	"country" text NOT NULL,
	"shard" smallint NOT NULL,
	"identifications" integer DEFAULT 0 NOT NULL,
	"returned" integer DEFAULT 0 NOT NULL,
	"bots" integer DEFAULT 0 NOT NULL,
	"allow" integer DEFAULT 0 NOT NULL,
	"challenge" integer DEFAULT 0 NOT NULL,
	"deny" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_rollups_hour_site_key_network_type_country_shard_pk" PRIMARY KEY("hour","site_key","network_type","country","shard")
);
--> statement-breakpoint
CREATE TABLE "visitor_sketches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_key" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sketch" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "visitor_sketches_hour" ON "visitor_sketches" USING btree ("hour","site_key");--> statement-breakpoint
-- How the overview classes an identification's address (contracts/console.ts NetworkType): Tor,
-- then a VPN of medium or high confidence, then a hosting network; an address a database places
-- is residential (homes, phones and offices alike), one none places unknown.
CREATE FUNCTION tessera_network_type(signals jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN (signals->'tor'->>'result')::boolean THEN 'tor'
    WHEN (signals->'vpn'->>'result')::boolean AND signals->'vpn'->>'confidence' <> 'low' THEN 'vpn'
    WHEN (signals->'datacenter'->>'result')::boolean THEN 'datacenter'
    WHEN signals->'ipInfo'->'result'->>'countryCode' IS NOT NULL
      OR signals->'ipInfo'->'result'->>'asn' IS NOT NULL THEN 'residential'
    ELSE 'unknown' END
$$;
--> statement-breakpoint
CREATE FUNCTION tessera_hour(moment timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('hour', moment AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
$$;
--> statement-breakpoint
-- A visitor in a sketch: the first 8 bytes of md5 of its ID (console/visitor-sketch.ts reads them).
CREATE FUNCTION tessera_visitor_hash(visitor_id text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT decode(left(md5(visitor_id), 16), 'hex')
$$;
--> statement-breakpoint
-- Each statement that stores events adds its counts (one upsert per row it touches, in key order so
-- two writers never wait on each other crosswise) and one sparse sketch of its visitors per hour.
CREATE FUNCTION tessera_roll_up_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_rollups AS r (hour, site_key, network_type, country, shard, identifications, returned, bots)
  SELECT tessera_hour(created_at), coalesce(site_key, ''), tessera_network_type(signals),
    coalesce(signals->'ipInfo'->'result'->>'countryCode', ''), pg_backend_pid() % 8,
    count(*), count(*) FILTER (WHERE visitor_found), count(*) FILTER (WHERE signals->'bot'->>'result' = 'bad')
  FROM fresh GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (hour, site_key, network_type, country, shard) DO UPDATE SET
    identifications = r.identifications + excluded.identifications,
    returned = r.returned + excluded.returned, bots = r.bots + excluded.bots;
  INSERT INTO visitor_sketches (hour, site_key, sketch)
  SELECT hour, site_key, '\x00'::bytea || string_agg(hash, ''::bytea ORDER BY hash)
  FROM (SELECT DISTINCT tessera_hour(created_at) AS hour, coalesce(site_key, '') AS site_key,
          tessera_visitor_hash(visitor_id) AS hash FROM fresh) AS visits
  GROUP BY 1, 2;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "events_roll_up" AFTER INSERT ON "events"
  REFERENCING NEW TABLE AS fresh FOR EACH STATEMENT EXECUTE FUNCTION tessera_roll_up_events();
--> statement-breakpoint
-- A sign-up decision counts in the hour it was made, under its identification's site and network.
CREATE FUNCTION tessera_roll_up_decisions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_rollups AS r (hour, site_key, network_type, country, shard, allow, challenge, deny)
  SELECT tessera_hour(d.created_at), coalesce(e.site_key, ''), coalesce(tessera_network_type(e.signals), 'unknown'),
    coalesce(e.signals->'ipInfo'->'result'->>'countryCode', ''), pg_backend_pid() % 8,
    count(*) FILTER (WHERE d.outcome = 'allow'), count(*) FILTER (WHERE d.outcome = 'challenge'),
    count(*) FILTER (WHERE d.outcome = 'deny')
  FROM fresh d LEFT JOIN events e ON e.request_id = d.request_id
  GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (hour, site_key, network_type, country, shard) DO UPDATE SET
    allow = r.allow + excluded.allow, challenge = r.challenge + excluded.challenge, deny = r.deny + excluded.deny;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "signup_decisions_roll_up" AFTER INSERT ON "signup_decisions"
  REFERENCING NEW TABLE AS fresh FOR EACH STATEMENT EXECUTE FUNCTION tessera_roll_up_decisions();
--> statement-breakpoint
-- What is stored already, rolled up once (shard 0).
INSERT INTO event_rollups (hour, site_key, network_type, country, shard, identifications, returned, bots)
SELECT tessera_hour(created_at), coalesce(site_key, ''), tessera_network_type(signals),
  coalesce(signals->'ipInfo'->'result'->>'countryCode', ''), 0,
  count(*), count(*) FILTER (WHERE visitor_found), count(*) FILTER (WHERE signals->'bot'->>'result' = 'bad')
FROM events GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO event_rollups AS r (hour, site_key, network_type, country, shard, allow, challenge, deny)
SELECT tessera_hour(d.created_at), coalesce(e.site_key, ''), coalesce(tessera_network_type(e.signals), 'unknown'),
  coalesce(e.signals->'ipInfo'->'result'->>'countryCode', ''), 0,
  count(*) FILTER (WHERE d.outcome = 'allow'), count(*) FILTER (WHERE d.outcome = 'challenge'),
  count(*) FILTER (WHERE d.outcome = 'deny')
FROM signup_decisions d LEFT JOIN events e ON e.request_id = d.request_id
GROUP BY 1, 2, 3, 4
ON CONFLICT (hour, site_key, network_type, country, shard) DO UPDATE SET
  allow = r.allow + excluded.allow, challenge = r.challenge + excluded.challenge, deny = r.deny + excluded.deny;
--> statement-breakpoint
INSERT INTO visitor_sketches (hour, site_key, sketch)
SELECT hour, site_key, '\x00'::bytea || string_agg(hash, ''::bytea ORDER BY hash)
FROM (SELECT DISTINCT tessera_hour(created_at) AS hour, coalesce(site_key, '') AS site_key,
        tessera_visitor_hash(visitor_id) AS hash FROM events) AS visits
GROUP BY 1, 2;
