ALTER TABLE "events" ADD COLUMN "last_date_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "events_approved_series_last_date_idx" ON "events" USING btree ("last_date_at") WHERE "events"."status" = 'approved' and "events"."last_date_at" is not null;--> statement-breakpoint
UPDATE "events" e SET "last_date_at" = (SELECT max(d."starts_at") FROM "event_dates" d WHERE d."event_id" = e."id" AND d."status" = 'active')
WHERE EXISTS (SELECT 1 FROM "event_dates" d WHERE d."event_id" = e."id");
