-- A post's replies come a page at a time, newest first (docs/decisions/pagination.md): the parent's index gains the order.
DROP INDEX IF EXISTS "forum_posts_parent_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "forum_posts_parent_idx" ON "forum_posts" USING btree ("parent_id","created_at","id");
