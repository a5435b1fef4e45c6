CREATE TABLE "payout_accounts" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"method" text NOT NULL,
	"phone" text,
	"shortcode" text,
	"account_reference" text,
	"code_phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"wrong_attempts" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmed_at" timestamp with time zone,
	"held_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_accounts_status_valid" CHECK ("payout_accounts"."status" in ('pending', 'confirmed', 'replaced', 'locked')),
	CONSTRAINT "payout_accounts_destination_valid" CHECK (("payout_accounts"."method" = 'mpesa' and "payout_accounts"."phone" is not null and "payout_accounts"."shortcode" is null and "payout_accounts"."account_reference" is null)
        or ("payout_accounts"."method" = 'paybill' and "payout_accounts"."phone" is null and "payout_accounts"."shortcode" is not null and "payout_accounts"."account_reference" is not null)
        or ("payout_accounts"."method" = 'till' and "payout_accounts"."phone" is null and "payout_accounts"."shortcode" is not null and "payout_accounts"."account_reference" is null)),
	CONSTRAINT "payout_accounts_confirmed_together" CHECK (("payout_accounts"."status" = 'confirmed') = ("payout_accounts"."confirmed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_accounts_one_pending_idx" ON "payout_accounts" USING btree ("user_id") WHERE "payout_accounts"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payout_accounts_user_idx" ON "payout_accounts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payout_accounts_confirmed_idx" ON "payout_accounts" USING btree ("user_id","confirmed_at") WHERE "payout_accounts"."status" = 'confirmed';--> statement-breakpoint
-- First version of the module's function (today's is in src/modules/payout-accounts/sql/confirmed-rows-kept.sql, applied at every start).
CREATE OR REPLACE FUNCTION tukio_payout_account_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'confirmed' THEN
    RAISE EXCEPTION 'a confirmed payout destination is never changed (%): add a new one instead', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payout_accounts_confirmed_kept BEFORE UPDATE ON payout_accounts FOR EACH ROW EXECUTE FUNCTION tukio_payout_account_kept();
