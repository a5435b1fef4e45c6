-- Substring search over titles and places (ILIKE '%…%': the admin list's search box, search's place filter) through
-- trigram indexes instead of reading every event (pg_trgm comes with 0015). IF NOT EXISTS: this migration was first
-- dated before 0019, so databases migrated then ran it (a new one) or skipped it (one that had 0019); redated after
-- 0019, it now runs on both, and must not fail where its indexes exist.
CREATE INDEX IF NOT EXISTS "events_title_trgm_idx" ON "events" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_location_trgm_idx" ON "events" USING gin ("location" gin_trgm_ops);