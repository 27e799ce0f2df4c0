-- Retention finds the visitors not seen within the period by their last visit (issue 28): it walked
-- every visitor in ID order and read each one's row to check the date, 13.6 s for a million visitors
-- of which 2 000 had expired. Building the index locks visitors against writes while it runs (0.1 s
-- for 100 000 visitors in bench:scale's load); applied with 0037 in one transaction, it holds events
-- locked meanwhile too.
CREATE INDEX "visitors_last_seen" ON "visitors" USING btree ("last_seen_at");
