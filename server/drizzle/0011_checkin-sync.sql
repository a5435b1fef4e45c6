CREATE TABLE "checkin_scans" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"event_id" varchar(24) NOT NULL,
	"ticket_id" varchar(24) NOT NULL,
	"device" text,
	"scanned_at" timestamp with time zone NOT NULL,
	"device_scanned_at" timestamp with time zone NOT NULL,
	"scanned_by" varchar(24),
	"offline" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "checked_in_device" text;--> statement-breakpoint
ALTER TABLE "checkin_scans" ADD CONSTRAINT "checkin_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkin_scans" ADD CONSTRAINT "checkin_scans_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkin_scans_retry_idx" ON "checkin_scans" USING btree ("ticket_id","device","device_scanned_at");--> statement-breakpoint
CREATE INDEX "checkin_scans_event_idx" ON "checkin_scans" USING btree ("event_id","scanned_at");--> statement-breakpoint
-- Tickets checked in before scans were recorded get one scan row each (no device name), so the
-- earliest-scan rule of offline sync also sees them.
INSERT INTO "checkin_scans" ("id", "event_id", "ticket_id", "device", "scanned_at", "device_scanned_at", "scanned_by", "offline")
SELECT substr(md5('checkin-backfill:' || "id"), 1, 24), "event_id", "id", NULL, "checked_in_at", "checked_in_at", "checked_in_by", false
FROM "tickets" WHERE "checked_in_at" IS NOT NULL;
