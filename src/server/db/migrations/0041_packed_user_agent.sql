-- The User-Agent header packed by the server (packed-json.ts against USER_AGENT_DICTIONARY): 10 to 30
-- bytes where the text took about 110, the largest field of an event after its signals (issue 28).
-- A stored one becomes its JSON string, which reads as itself.
ALTER TABLE "events" ALTER COLUMN "user_agent" SET DATA TYPE bytea USING convert_to(to_json("user_agent")::text, 'UTF8');
