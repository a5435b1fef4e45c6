-- Substring search over titles and places (ILIKE '%…%': the admin list's search box, search's place filter) through
-- trigram indexes instead of reading every event (pg_trgm comes with 0015).
CREATE INDEX "events_title_trgm_idx" ON "events" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "events_location_trgm_idx" ON "events" USING gin ("location" gin_trgm_ops);