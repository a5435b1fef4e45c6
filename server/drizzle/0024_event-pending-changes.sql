-- An organiser's proposed edit of a published event waits here for review, the event row keeping the approved version.
CREATE TABLE "event_pending_changes" (
	"event_id" varchar(24) PRIMARY KEY NOT NULL,
	"changes" jsonb NOT NULL,
	"pauses_sales" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"proposed_by" varchar(24) NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"reject_reason" text,
	CONSTRAINT "event_pending_changes_status_valid" CHECK ("event_pending_changes"."status" in ('pending', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "event_pending_changes" ADD CONSTRAINT "event_pending_changes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_pending_changes" ADD CONSTRAINT "event_pending_changes_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_pending_changes_status_idx" ON "event_pending_changes" USING btree ("status","proposed_at");