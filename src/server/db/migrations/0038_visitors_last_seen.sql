-- Retention finds the visitors not seen within the period by their last visit (issue 28): it walked
-- every visitor in ID order and read each one's row to check the date, 13.6 s for a million visitors
-- of which 2 000 had expired. Building the index locks visitors against writes while it runs (about a
-- second per 100 000 visitors).
CREATE INDEX "visitors_last_seen" ON "visitors" USING btree ("last_seen_at");
