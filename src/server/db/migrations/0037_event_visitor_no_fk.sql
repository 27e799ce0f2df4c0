-- Events no longer reference visitors by a foreign key (issue 28). On day tables its cascade looked
-- for the events of every deleted visitor in each day's table (retention deletes thousands a day),
-- and detaching or dropping a day had to drop its copy of the key, a lock on visitors that waited for
-- the identifications in flight. The statements that delete visitors delete their events themselves
-- (forget-visitor.ts, purge-expired-data.ts); identify upserts an event's visitor in the statement
-- that writes the event. On a partitioned events table this drops every day's copy too.
ALTER TABLE "events" DROP CONSTRAINT IF EXISTS "events_visitor_id_visitors_id_fk";
