-- Search (docs/decisions/search.md): pg_trgm for typo-tolerant words, per-field vectors for the relevance classes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "title_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(title, ''))) STORED;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "place_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(title, '') || ' ' || coalesce(location, ''))) STORED;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "location_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(location, ''))) STORED;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "description_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(description, ''))) STORED;--> statement-breakpoint
CREATE INDEX "search_words_prefix_idx" ON "search_words" USING btree ("word" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "events_title_search_idx" ON "events" USING gin ("title_vector");--> statement-breakpoint
CREATE INDEX "events_place_search_idx" ON "events" USING gin ("place_vector");--> statement-breakpoint
CREATE INDEX "events_approved_starts_idx" ON "events" USING btree ("starts_at","id") WHERE "events"."status" = 'approved';--> statement-breakpoint
-- Every lexeme of an event's search vector becomes a known word: set-based per inserting statement (a
-- bulk import is one insert of its distinct words), per row when a title, place or description changes.
CREATE OR REPLACE FUNCTION tukio_remember_search_words() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    INSERT INTO search_words (word) SELECT v.lexeme FROM unnest(NEW.search_vector) AS v ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO search_words (word)
    SELECT DISTINCT v.lexeme FROM added, unnest(added.search_vector) AS v ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER events_search_words_insert AFTER INSERT ON events REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION tukio_remember_search_words();
--> statement-breakpoint
CREATE TRIGGER events_search_words_update AFTER UPDATE OF title, location, description ON events
  FOR EACH ROW WHEN (OLD.search_vector IS DISTINCT FROM NEW.search_vector) EXECUTE FUNCTION tukio_remember_search_words();
--> statement-breakpoint
INSERT INTO search_words (word) SELECT DISTINCT v.lexeme FROM events, unnest(events.search_vector) AS v ON CONFLICT DO NOTHING;
