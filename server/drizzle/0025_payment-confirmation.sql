-- A success callback is confirmed with M-Pesa (STK query) before it counts: payments record when M-Pesa agreed
-- (successes recorded earlier stay unconfirmed; the reconciler asks about the recent ones), a contradicted claim is
-- kept as a payment_contradictions row, and its tickets are voided with the new reason 'payment_reversed'.
CREATE TABLE "payment_contradictions" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"payment_id" varchar(24) NOT NULL,
	"claimed_receipt" text,
	"claimed_amount" integer,
	"provider_result_code" integer NOT NULL,
	"provider_result_desc" text NOT NULL,
	"tickets_voided" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" DROP CONSTRAINT "tickets_void_reason_valid";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_contradictions" ADD CONSTRAINT "payment_contradictions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_contradictions_created_idx" ON "payment_contradictions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_contradictions_payment_idx" ON "payment_contradictions" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payments_unconfirmed_success_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'success' and "payments"."provider_confirmed_at" is null;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_void_reason_valid" CHECK ("tickets"."void_reason" in ('event_cancelled', 'self_cancel', 'transferred', 'payment_reversed'));