CREATE TABLE "payout_attempts" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"payout_id" varchar(24) NOT NULL,
	"number" integer NOT NULL,
	"originator_conversation_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"conversation_id" text,
	"result_code" text,
	"result_desc" text,
	"transaction_id" text,
	"sent_at" timestamp with time zone,
	"status_asked_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_holds" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"event_id" varchar(24) NOT NULL,
	"reason" text NOT NULL,
	"held_by" varchar(24) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone,
	"released_by" varchar(24)
);
--> statement-breakpoint
CREATE TABLE "payout_organisers" (
	"organiser_id" varchar(24) PRIMARY KEY NOT NULL,
	"early_payouts" boolean DEFAULT false NOT NULL,
	"early_payouts_set_by" varchar(24),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organiser_id" varchar(24) NOT NULL,
	"amount" integer NOT NULL,
	"destination" jsonb NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"receipt" text,
	"charge" integer,
	"paid_at" timestamp with time zone,
	"failure" text,
	"retried_at" timestamp with time zone,
	"retried_by" varchar(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_amount_positive" CHECK ("payouts"."amount" > 0),
	CONSTRAINT "payouts_status_valid" CHECK ("payouts"."status" in ('sending', 'retrying', 'paid', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_valid";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "payout_id" varchar(24);--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_holds" ADD CONSTRAINT "payout_holds_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_holds" ADD CONSTRAINT "payout_holds_held_by_users_id_fk" FOREIGN KEY ("held_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_holds" ADD CONSTRAINT "payout_holds_released_by_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_organisers" ADD CONSTRAINT "payout_organisers_organiser_id_users_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_organisers" ADD CONSTRAINT "payout_organisers_early_payouts_set_by_users_id_fk" FOREIGN KEY ("early_payouts_set_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_organiser_id_users_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_retried_by_users_id_fk" FOREIGN KEY ("retried_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_attempts_originator_idx" ON "payout_attempts" USING btree ("originator_conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_attempts_payout_number_idx" ON "payout_attempts" USING btree ("payout_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_attempts_transaction_idx" ON "payout_attempts" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "payout_attempts_status_idx" ON "payout_attempts" USING btree ("status","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_holds_active_idx" ON "payout_holds" USING btree ("event_id") WHERE "payout_holds"."released_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_open_per_organiser_idx" ON "payouts" USING btree ("organiser_id") WHERE "payouts"."status" in ('sending', 'retrying');--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_receipt_idx" ON "payouts" USING btree ("receipt");--> statement-breakpoint
CREATE INDEX "payouts_organiser_idx" ON "payouts" USING btree ("organiser_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_status_idx" ON "payouts" USING btree ("status","next_attempt_at");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_kind_payout_idx" ON "ledger_transactions" USING btree ("kind","payout_id");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_payout_reference" CHECK (("ledger_transactions"."kind" in ('payout', 'payout_paid', 'payout_failed')) = ("ledger_transactions"."payout_id" is not null));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_valid" CHECK ("ledger_transactions"."kind" in ('payment', 'contradiction', 'refund', 'refund_paid', 'refund_failed', 'adjustment', 'payout', 'payout_paid', 'payout_failed'));--> statement-breakpoint
-- Payouts and their attempts are never deleted (first version of the function: src/modules/payouts/sql/payout-rows-kept.sql).
CREATE OR REPLACE FUNCTION tukio_payout_rows_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'payout rows are never % (table %)', lower(TG_OP) || 'd', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER payouts_never_deleted BEFORE DELETE ON payouts FOR EACH ROW EXECUTE FUNCTION tukio_payout_rows_kept();--> statement-breakpoint
CREATE TRIGGER payout_attempts_never_deleted BEFORE DELETE ON payout_attempts FOR EACH ROW EXECUTE FUNCTION tukio_payout_rows_kept();
