-- Signals and match evidence are stored packed (deflated against a preset dictionary by the app,
-- packed-json.ts): as JSON they were 1.5 KB of every event (issue 28). What SQL asks of the signals
-- moves to flags, an integer of bits (schema/event-flags.ts; tessera_flags_0039 below is its twin for
-- the rows already stored, whose JSON text stays readable as it is). This rewrites the events table
-- twice (the flags, then the columns' type), which on a large server takes as long as a copy of it.
CREATE FUNCTION tessera_flags_0039(signals jsonb) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce((SELECT sum(CASE jsonb_typeof(signals->flag.name->'result')
      WHEN 'boolean' THEN (CASE WHEN (signals->flag.name->>'result')::boolean THEN 3 ELSE 1 END) << flag.shift
      ELSE 0 END)
    FROM (VALUES ('tampering', 0), ('privateMode', 2), ('privacyBrowser', 4), ('virtualMachine', 6),
      ('datacenter', 8), ('vpn', 10), ('proxy', 12), ('tor', 14), ('ipBlocklist', 16)) AS flag(name, shift)), 0)::integer
    | (CASE signals->'bot'->>'result' WHEN 'notDetected' THEN 1 WHEN 'good' THEN 2 WHEN 'bad' THEN 3 ELSE 0 END << 18)
    | (CASE signals->'vpn'->>'confidence' WHEN 'low' THEN 1 WHEN 'medium' THEN 2 WHEN 'high' THEN 3 ELSE 0 END << 20)
$$;
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "flags" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The same pass gives events stored before their operator and country columns (0016, 0017 filled only
-- the last day's) those of their ipInfo signal, as identify places them (network-of.ts placeOf:
-- private-use and reserved AS numbers are no operator): searches and rollups now read the columns.
UPDATE "events" SET "flags" = tessera_flags_0039("signals"),
  "asn" = coalesce("asn", (SELECT CASE WHEN number >= 4200000000 OR number BETWEEN 64512 AND 65535 OR number > 2147483647
      OR number < 1 THEN NULL ELSE number::integer END
    FROM (SELECT ("signals"->'ipInfo'->'result'->>'asn')::numeric AS number) AS stored)),
  "country" = coalesce("country", "signals"->'ipInfo'->'result'->>'countryCode')
  WHERE "signals" <> '{}'::jsonb;--> statement-breakpoint
DROP FUNCTION tessera_flags_0039(jsonb);--> statement-breakpoint
DROP INDEX "events_bot_created";--> statement-breakpoint
DROP INDEX "events_tampering_created";--> statement-breakpoint
DROP INDEX "events_vpn_created";--> statement-breakpoint
DROP INDEX "events_tor_created";--> statement-breakpoint
DROP INDEX "events_datacenter_created";--> statement-breakpoint
DROP INDEX "events_proxy_created";--> statement-breakpoint
DROP INDEX "events_virtual_machine_created";--> statement-breakpoint
DROP INDEX "events_private_mode_created";--> statement-breakpoint
-- Durations, packed: each in tenths of a millisecond (what the agent measures), as a base-128 varint
-- of tenths + 1 (0: none), about a byte each where 60 doubles took 504 bytes of a row too short for
-- PostgreSQL to compress. Identify packs what tessera_durations reads; tessera_components takes them unpacked.
CREATE FUNCTION tessera_pack_durations(durations double precision[]) RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  packed bytea := '';
  duration double precision;
  code bigint;
BEGIN
  FOREACH duration IN ARRAY coalesce(durations, '{}') LOOP
    code := CASE WHEN duration IS NULL THEN 0 ELSE round((least(greatest(duration, 0), 429496729.4) * 10)::numeric) + 1 END;
    WHILE code >= 128 LOOP
      packed := packed || set_byte('\x00'::bytea, 0, ((code & 127) | 128)::integer);
      code := code >> 7;
    END LOOP;
    packed := packed || set_byte('\x00'::bytea, 0, code::integer);
  END LOOP;
  RETURN packed;
END
$$;
--> statement-breakpoint
CREATE FUNCTION tessera_unpack_durations(packed bytea) RETURNS double precision[] LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  durations double precision[] := '{}';
  code bigint := 0;
  shift integer := 0;
  byte integer;
BEGIN
  FOR at IN 0 .. coalesce(length(packed), 0) - 1 LOOP
    byte := get_byte(packed, at);
    code := code | ((byte & 127)::bigint << shift);
    IF byte < 128 THEN
      durations := durations || CASE WHEN code = 0 THEN NULL ELSE (code - 1) / 10.0::double precision END;
      code := 0;
      shift := 0;
    ELSE
      shift := shift + 7;
    END IF;
  END LOOP;
  RETURN durations;
END
$$;
--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "signals" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "signals" SET DATA TYPE bytea USING convert_to("signals"::text, 'UTF8'),
  ALTER COLUMN "evidence" SET DATA TYPE bytea USING convert_to("evidence"::text, 'UTF8'),
  ALTER COLUMN "durations" SET DATA TYPE bytea USING tessera_pack_durations("durations");--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "signals" SET DEFAULT '\x7b7d'::bytea;--> statement-breakpoint
CREATE INDEX "events_bot_created" ON "events" USING btree ("created_at","request_id") WHERE (flags & 786432) = 786432;--> statement-breakpoint
CREATE INDEX "events_tampering_created" ON "events" USING btree ("created_at","request_id") WHERE (flags & 2) <> 0;--> statement-breakpoint
CREATE INDEX "events_vpn_created" ON "events" USING btree ("created_at","request_id") WHERE (flags & 2048) <> 0;--> statement-breakpoint
CREATE INDEX "events_tor_created" ON "events" USING btree ("created_at","request_id") WHERE (flags & 32768) <> 0;--> statement-breakpoint
CREATE INDEX "events_datacenter_created" ON "events" USING btree ("created_at","request_id") WHERE (flags & 512) <> 0;--> statement-breakpoint
CREATE INDEX "events_proxy_created" ON "events" USING btree ("created_at","request_id") WHERE (flags & 8192) <> 0;--> statement-breakpoint
CREATE INDEX "events_virtual_machine_created" ON "events" USING btree ("created_at","request_id") WHERE (flags & 128) <> 0;--> statement-breakpoint
CREATE INDEX "events_private_mode_created" ON "events" USING btree ("created_at","request_id") WHERE (flags & 8) <> 0;--> statement-breakpoint
-- The overview's network type and country, from the flags and the event's own columns (as 0020 read
-- them from the signals: Tor, a VPN of medium or high confidence, hosting, else placed or unknown).
CREATE FUNCTION tessera_network_type(flags integer, country text, asn integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN (flags & 32768) <> 0 THEN 'tor'
    WHEN (flags & 2048) <> 0 AND ((flags >> 20) & 3) >= 2 THEN 'vpn'
    WHEN (flags & 512) <> 0 THEN 'datacenter'
    WHEN country IS NOT NULL OR asn IS NOT NULL THEN 'residential'
    ELSE 'unknown' END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tessera_roll_up_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_rollups AS r (hour, site_key, network_type, country, shard, identifications, returned, bots)
  SELECT tessera_hour(created_at), coalesce(site_key, ''), tessera_network_type(flags, country, asn),
    coalesce(country, ''), pg_backend_pid() % 8,
    count(*), count(*) FILTER (WHERE visitor_found), count(*) FILTER (WHERE (flags & 786432) = 786432)
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
CREATE OR REPLACE FUNCTION tessera_roll_up_decisions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_rollups AS r (hour, site_key, network_type, country, shard, allow, challenge, deny)
  SELECT tessera_hour(d.created_at), coalesce(e.site_key, ''), coalesce(tessera_network_type(e.flags, e.country, e.asn), 'unknown'),
    coalesce(e.country, ''), pg_backend_pid() % 8,
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
DROP FUNCTION tessera_network_type(jsonb);
