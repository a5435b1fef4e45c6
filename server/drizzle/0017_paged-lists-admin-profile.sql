-- Keyset pages of the admin and profile lists (docs/decisions/pagination.md): each order ends with the id.
CREATE INDEX IF NOT EXISTS "events_starts_id_idx" ON "events" USING btree ("starts_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_user_status_starts_idx" ON "events" USING btree ("user_id","status","starts_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_user_created_idx" ON "payments" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "refunds_created_idx" ON "refunds" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "refunds_status_created_idx" ON "refunds" USING btree ("status","created_at","id");
