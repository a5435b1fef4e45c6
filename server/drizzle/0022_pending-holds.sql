-- An order's payments by order (a guest order claimed, cancelled orders refunded), and recent seat holds still waiting
-- for their push, counted each second by the waiting room's adaptive rate (a partial index: pending orders only).
CREATE INDEX IF NOT EXISTS "orders_pending_created_idx" ON "orders" USING btree ("created_at") WHERE "orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payments_order_idx" ON "payments" USING btree ("order_id");