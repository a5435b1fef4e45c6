ALTER TABLE "reconciliation_findings" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reconciliation_findings" ADD COLUMN "reviewed_by" varchar(24);--> statement-breakpoint
ALTER TABLE "reconciliation_findings" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "reconciliation_findings" ADD CONSTRAINT "reconciliation_findings_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;