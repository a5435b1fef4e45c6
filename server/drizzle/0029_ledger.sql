CREATE TABLE "ledger_entries" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"transaction_id" varchar(24) NOT NULL,
	"account" text NOT NULL,
	"event_id" varchar(24),
	"organiser_id" varchar(24),
	"amount" integer NOT NULL,
	CONSTRAINT "ledger_entries_account_valid" CHECK ("ledger_entries"."account" in ('mpesa_clearing', 'organiser_payable', 'platform_fees', 'mpesa_charges', 'refunds_payable', 'payouts_in_flight')),
	CONSTRAINT "ledger_entries_amount_nonzero" CHECK ("ledger_entries"."amount" <> 0),
	CONSTRAINT "ledger_entries_payable_has_event" CHECK ("ledger_entries"."account" <> 'organiser_payable' or "ledger_entries"."event_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payment_id" varchar(24),
	"refund_id" varchar(24),
	"memo" text,
	"created_by" varchar(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transactions_kind_valid" CHECK ("ledger_transactions"."kind" in ('payment', 'contradiction', 'refund', 'refund_paid', 'refund_failed', 'adjustment')),
	CONSTRAINT "ledger_transactions_payment_reference" CHECK (("ledger_transactions"."kind" in ('payment', 'contradiction')) = ("ledger_transactions"."payment_id" is not null)),
	CONSTRAINT "ledger_transactions_refund_reference" CHECK (("ledger_transactions"."kind" in ('refund', 'refund_paid', 'refund_failed')) = ("ledger_transactions"."refund_id" is not null)),
	CONSTRAINT "ledger_transactions_adjustment_reason" CHECK ("ledger_transactions"."kind" <> 'adjustment' or ("ledger_transactions"."created_by" is not null and length("ledger_transactions"."memo") > 0))
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_organiser_id_users_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_event_idx" ON "ledger_entries" USING btree ("account","event_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_event_idx" ON "ledger_entries" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_kind_payment_idx" ON "ledger_transactions" USING btree ("kind","payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_kind_refund_idx" ON "ledger_transactions" USING btree ("kind","refund_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_created_idx" ON "ledger_transactions" USING btree ("created_at");--> statement-breakpoint
-- First versions of the ledger's functions (today's are in src/modules/ledger/sql/ledger-rules.sql, applied at every start).
CREATE OR REPLACE FUNCTION tukio_ledger_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  tx_id varchar := to_jsonb(NEW) ->> TG_ARGV[0];
  total bigint;
  legs integer;
BEGIN
  SELECT coalesce(sum(e.amount), 0), count(*) INTO total, legs FROM ledger_entries e WHERE e.transaction_id = tx_id;
  IF total <> 0 OR legs < 2 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: % entries summing to %', tx_id, legs, total USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tukio_ledger_rows_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are never % (table %): post a correcting transaction instead', lower(TG_OP) || 'd', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
-- Checked at commit, so a transaction and its entries may be written in any order: each transaction has two
-- entries or more, summing to zero.
CREATE CONSTRAINT TRIGGER ledger_transactions_balanced AFTER INSERT ON ledger_transactions DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tukio_ledger_balanced('id');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tukio_ledger_balanced('transaction_id');
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION tukio_ledger_rows_kept();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION tukio_ledger_rows_kept();
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_never_truncated BEFORE TRUNCATE ON ledger_transactions FOR EACH STATEMENT EXECUTE FUNCTION tukio_ledger_rows_kept();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_never_truncated BEFORE TRUNCATE ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION tukio_ledger_rows_kept();
--> statement-breakpoint
-- The backfill: every payment and refund recorded before the ledger, posted as the code posts them now
-- (ledger.service.ts). Ids are derived from what each row records, and the unique (kind, reference) indexes
-- skip what is there already, so running it again adds nothing. Money that came in: every successful payment,
-- and every success M-Pesa later contradicted (it keeps its claimed receipt; posted, then reversed).
INSERT INTO ledger_transactions (id, kind, payment_id, memo, created_at)
SELECT substr(md5('ledger:payment:' || p.id), 1, 24), 'payment', p.id, 'backfill (0029)', p.updated_at
  FROM payments p
 WHERE p.status = 'success'
    OR (p.mpesa_receipt_number IS NOT NULL AND EXISTS (SELECT 1 FROM payment_contradictions c WHERE c.payment_id = p.id))
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO ledger_entries (id, transaction_id, account, event_id, organiser_id, amount)
SELECT substr(md5('ledger:payment:' || p.id || ':' || leg.account), 1, 24), t.id, leg.account, p.event_id,
       CASE WHEN leg.account = 'organiser_payable' THEN e.user_id END, leg.sign * p.amount
  FROM ledger_transactions t
  JOIN payments p ON p.id = t.payment_id
  JOIN events e ON e.id = p.event_id
 CROSS JOIN (VALUES ('mpesa_clearing', 1), ('organiser_payable', -1)) AS leg (account, sign)
 WHERE t.kind = 'payment' AND t.memo = 'backfill (0029)'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO ledger_transactions (id, kind, payment_id, memo, created_at)
SELECT substr(md5('ledger:contradiction:' || p.id), 1, 24), 'contradiction', p.id, 'backfill (0029)', c.created_at
  FROM payments p
  JOIN payment_contradictions c ON c.payment_id = p.id
 WHERE p.status <> 'success' AND p.mpesa_receipt_number IS NOT NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO ledger_entries (id, transaction_id, account, event_id, organiser_id, amount)
SELECT substr(md5('ledger:contradiction:' || p.id || ':' || leg.account), 1, 24), t.id, leg.account, p.event_id,
       CASE WHEN leg.account = 'organiser_payable' THEN e.user_id END, leg.sign * p.amount
  FROM ledger_transactions t
  JOIN payments p ON p.id = t.payment_id
  JOIN events e ON e.id = p.event_id
 CROSS JOIN (VALUES ('mpesa_clearing', -1), ('organiser_payable', 1)) AS leg (account, sign)
 WHERE t.kind = 'contradiction' AND t.memo = 'backfill (0029)'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Every refund, whatever its state, is owed by the event's organiser to the buyer; a succeeded one was paid
-- out of the shortcode too. (A failed one is still owed: an administrator retries it.)
INSERT INTO ledger_transactions (id, kind, refund_id, memo, created_at)
SELECT substr(md5('ledger:refund:' || r.id), 1, 24), 'refund', r.id, 'backfill (0029)', r.created_at
  FROM refunds r
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO ledger_transactions (id, kind, refund_id, memo, created_at)
SELECT substr(md5('ledger:refund_paid:' || r.id), 1, 24), 'refund_paid', r.id, 'backfill (0029)', r.updated_at
  FROM refunds r
 WHERE r.status = 'succeeded'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO ledger_entries (id, transaction_id, account, event_id, organiser_id, amount)
SELECT substr(md5('ledger:' || t.kind || ':' || r.id || ':' || leg.account), 1, 24), t.id, leg.account, r.event_id,
       CASE WHEN leg.account = 'organiser_payable' THEN e.user_id END, leg.sign * r.amount
  FROM ledger_transactions t
  JOIN refunds r ON r.id = t.refund_id
  JOIN events e ON e.id = r.event_id
  JOIN (VALUES ('refund', 'organiser_payable', 1), ('refund', 'refunds_payable', -1),
               ('refund_paid', 'refunds_payable', 1), ('refund_paid', 'mpesa_clearing', -1)) AS leg (kind, account, sign)
    ON leg.kind = t.kind
 WHERE t.memo = 'backfill (0029)'
ON CONFLICT DO NOTHING;
