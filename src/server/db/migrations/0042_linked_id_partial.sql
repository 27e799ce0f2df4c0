-- Only the events that carry a linked ID are indexed by it: most carry none, and every search is for one
-- (about 30 bytes an event, issue 28).
DROP INDEX "events_linked_id";--> statement-breakpoint
CREATE INDEX "events_linked_id" ON "events" USING btree ("linked_id") WHERE "linked_id" IS NOT NULL;
