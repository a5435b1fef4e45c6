CREATE TABLE "unmatched_payments" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"trans_id" text NOT NULL,
	"bill_ref_number" text NOT NULL,
	"amount" integer NOT NULL,
	"msisdn" text NOT NULL,
	"short_code" text NOT NULL,
	"trans_time" text,
	"status" text DEFAULT 'waiting' NOT NULL,
	"payment_id" varchar(24),
	"resolved_by" varchar(24),
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_valid";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_valid";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "order_code" text;--> statement-breakpoint
ALTER TABLE "unmatched_payments" ADD CONSTRAINT "unmatched_payments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unmatched_payments" ADD CONSTRAINT "unmatched_payments_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "unmatched_payments_trans_idx" ON "unmatched_payments" USING btree ("trans_id");--> statement-breakpoint
CREATE INDEX "unmatched_payments_status_idx" ON "unmatched_payments" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_code_idx" ON "orders" USING btree ("order_code");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_valid" CHECK ("ledger_entries"."account" in ('mpesa_clearing', 'organiser_payable', 'platform_fees', 'mpesa_charges', 'refunds_payable', 'payouts_in_flight', 'unmatched_receipts'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_valid" CHECK ("ledger_transactions"."kind" in ('payment', 'contradiction', 'refund', 'refund_paid', 'refund_failed', 'adjustment', 'payout', 'payout_paid', 'payout_failed', 'unmatched_payment', 'unmatched_placed'));