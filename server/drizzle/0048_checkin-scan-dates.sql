ALTER TABLE "checkin_scans" ADD COLUMN "date_id" varchar(24);--> statement-breakpoint
ALTER TABLE "checkin_scans" ADD CONSTRAINT "checkin_scans_date_id_event_dates_id_fk" FOREIGN KEY ("date_id") REFERENCES "public"."event_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkin_scans_ticket_date_idx" ON "checkin_scans" USING btree ("ticket_id","date_id");--> statement-breakpoint
-- Scans made on a series before scans named their date: a day ticket's scan was for its own date, a pass's for the date whose admission it wrote (same time).
UPDATE "checkin_scans" s SET "date_id" = t."date_id" FROM "tickets" t WHERE t."id" = s."ticket_id" AND t."date_id" IS NOT NULL AND s."date_id" IS NULL;--> statement-breakpoint
UPDATE "checkin_scans" s SET "date_id" = c."date_id" FROM "ticket_date_checkins" c WHERE c."ticket_id" = s."ticket_id" AND c."checked_in_at" = s."scanned_at" AND s."date_id" IS NULL;
