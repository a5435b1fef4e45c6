ALTER TABLE "orders" ADD COLUMN "instalment_deposit" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "instalment_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "instalment_cancellation_fee" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "instalment_paid" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fee_share" integer;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "instalments" jsonb;--> statement-breakpoint
CREATE INDEX "orders_reserved_due_idx" ON "orders" USING btree ("instalment_due_at") WHERE "orders"."status" = 'reserved';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_instalment_paid_valid" CHECK ("orders"."instalment_paid" >= 0 and "orders"."instalment_paid" <= "orders"."amount");