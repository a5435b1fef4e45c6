-- The mail outbox (docs/decisions/scale-out.md, "Mail"): ticket and account emails sent by a job, once, surviving a restart.
CREATE TABLE "mail_outbox" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"recipient" text NOT NULL,
	"kind" text DEFAULT 'mail' NOT NULL,
	"body" jsonb,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_status_valid" CHECK ("mail_outbox"."status" in ('queued', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "mail_outbox_status_next_idx" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_updated_idx" ON "mail_outbox" USING btree ("updated_at");