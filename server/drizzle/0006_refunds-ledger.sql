CREATE TABLE "refund_attempts" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"refund_id" varchar(24) NOT NULL,
	"originator_conversation_id" text NOT NULL,
	"conversation_id" text,
	"method" text NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"result_code" text,
	"result_desc" text,
	"transaction_id" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "refund_transitions" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"refund_id" varchar(24) NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"order_id" varchar(24) NOT NULL,
	"payment_id" varchar(24) NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"event_id" varchar(24) NOT NULL,
	"amount" integer NOT NULL,
	"phone" text NOT NULL,
	"reason" text NOT NULL,
	"method" text NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"receipt" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancelled_from" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "refund_attempts" ADD CONSTRAINT "refund_attempts_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_transitions" ADD CONSTRAINT "refund_transitions_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_attempts_originator_idx" ON "refund_attempts" USING btree ("originator_conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refund_attempts_conversation_idx" ON "refund_attempts" USING btree ("conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refund_attempts_transaction_idx" ON "refund_attempts" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "refund_attempts_refund_idx" ON "refund_attempts" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "refund_attempts_status_sent_idx" ON "refund_attempts" USING btree ("status","sent_at");--> statement-breakpoint
CREATE INDEX "refund_transitions_refund_idx" ON "refund_transitions" USING btree ("refund_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_receipt_idx" ON "refunds" USING btree ("receipt");--> statement-breakpoint
CREATE INDEX "refunds_status_next_idx" ON "refunds" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_event_idx" ON "refunds" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "payments_event_idx" ON "payments" USING btree ("event_id");
--> statement-breakpoint
-- The ledger is append-only: refunds and their attempts are never deleted, and a transition once written
-- never changes (the foreign keys already refuse deleting what they point at).
CREATE OR REPLACE FUNCTION tukio_refund_rows_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'refund ledger rows are never % (table %)', lower(TG_OP) || 'd', TG_TABLE_NAME;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER refunds_never_deleted BEFORE DELETE ON refunds FOR EACH ROW EXECUTE FUNCTION tukio_refund_rows_kept();
--> statement-breakpoint
CREATE TRIGGER refund_attempts_never_deleted BEFORE DELETE ON refund_attempts FOR EACH ROW EXECUTE FUNCTION tukio_refund_rows_kept();
--> statement-breakpoint
CREATE TRIGGER refund_transitions_append_only BEFORE UPDATE OR DELETE ON refund_transitions FOR EACH ROW EXECUTE FUNCTION tukio_refund_rows_kept();
--> statement-breakpoint
-- Orders flagged refund_due before the ledger existed get their refund row, as `failed`: they were refunded
-- by hand until now, so nothing is sent for them until an administrator checks and retries one.
INSERT INTO refunds (id, order_id, payment_id, user_id, event_id, amount, phone, reason, method, status, attempts, next_attempt_at, created_at, updated_at)
SELECT substr(md5(p.id || random()::text), 1, 24), o.id, p.id, o.user_id, o.event_id, p.amount, p.phone, 'sold_out',
       CASE WHEN p.mpesa_receipt_number IS NULL THEN 'b2c' ELSE 'reversal' END, 'failed', 0, now(), o.updated_at, now()
FROM orders o
JOIN LATERAL (
  SELECT * FROM payments p WHERE p.order_id = o.id AND p.status = 'success' ORDER BY p.updated_at LIMIT 1
) p ON true
WHERE o.status = 'refund_due' AND p.amount > 0;
--> statement-breakpoint
INSERT INTO refund_transitions (id, refund_id, from_status, to_status, at, detail)
SELECT substr(md5(r.id || random()::text), 1, 24), r.id, NULL, 'failed', r.created_at,
       'recorded before the refund ledger: refund by hand, or retry to send it through M-Pesa'
FROM refunds r;
