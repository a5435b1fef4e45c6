-- Keyset pages of the community, chat and attendee lists (docs/decisions/pagination.md): each order ends with the id.
DROP INDEX IF EXISTS "comments_event_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "comments_event_idx" ON "comments" USING btree ("event_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "reviews_event_created_idx" ON "reviews" USING btree ("event_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "forum_threads_event_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "forum_threads_event_idx" ON "forum_threads" USING btree ("event_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "forum_posts_thread_top_idx" ON "forum_posts" USING btree ("thread_id","created_at","id") WHERE "forum_posts"."parent_id" is null;--> statement-breakpoint
-- A user's contacts gather the messages they received as well as those they sent (chat_messages_pair_idx).
CREATE INDEX IF NOT EXISTS "chat_messages_recipient_idx" ON "chat_messages" USING btree ("recipient_id","sender_id","created_at");
