ALTER TABLE "refunds" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "payment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "unmatched_payment_id" varchar(24);--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_unmatched_payment_id_unmatched_payments_id_fk" FOREIGN KEY ("unmatched_payment_id") REFERENCES "public"."unmatched_payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_unmatched_idx" ON "refunds" USING btree ("unmatched_payment_id");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_one_source" CHECK (("refunds"."unmatched_payment_id" is null and "refunds"."order_id" is not null and "refunds"."payment_id" is not null and "refunds"."user_id" is not null and "refunds"."event_id" is not null) or ("refunds"."unmatched_payment_id" is not null and "refunds"."order_id" is null and "refunds"."payment_id" is null and "refunds"."user_id" is null and "refunds"."event_id" is null));