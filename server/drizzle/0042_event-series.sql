ALTER TABLE "ticket_types" DROP CONSTRAINT "ticket_types_date_id_event_dates_id_fk";
--> statement-breakpoint
ALTER TABLE "tickets" DROP CONSTRAINT "tickets_date_id_event_dates_id_fk";
--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_date_id_event_dates_id_fk" FOREIGN KEY ("date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_date_id_event_dates_id_fk" FOREIGN KEY ("date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;