CREATE TABLE "account_deletions" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"undo_token_hash" text,
	"forfeit_tickets" boolean DEFAULT false NOT NULL,
	"requested_by" varchar(24),
	"reason" text,
	"confirmed_at" timestamp with time zone,
	"erase_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" varchar(24),
	"erased_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_deletions_scheduled_when" CHECK ("account_deletions"."status" <> 'scheduled' or "account_deletions"."erase_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_deletions" ADD CONSTRAINT "account_deletions_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_deletions_confirm_token_idx" ON "account_deletions" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "account_deletions_undo_token_idx" ON "account_deletions" USING btree ("undo_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "account_deletions_open_idx" ON "account_deletions" USING btree ("user_id") WHERE "account_deletions"."status" in ('requested', 'scheduled');--> statement-breakpoint
CREATE INDEX "account_deletions_due_idx" ON "account_deletions" USING btree ("status","erase_at");