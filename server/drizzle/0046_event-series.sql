CREATE TABLE "event_dates" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"event_id" varchar(24) NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"capacity" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_dates_status_valid" CHECK ("event_dates"."status" in ('active', 'cancelled')),
	CONSTRAINT "event_dates_capacity_valid" CHECK ("event_dates"."capacity" is null or "event_dates"."capacity" >= 1),
	CONSTRAINT "event_dates_ends_valid" CHECK ("event_dates"."ends_at" is null or "event_dates"."ends_at" > "event_dates"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "ticket_date_checkins" (
	"ticket_id" varchar(24) NOT NULL,
	"date_id" varchar(24) NOT NULL,
	"checked_in_at" timestamp with time zone NOT NULL,
	"checked_in_by" varchar(24),
	CONSTRAINT "ticket_date_checkins_ticket_id_date_id_pk" PRIMARY KEY("ticket_id","date_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "date_id" varchar(24);--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "date_id" varchar(24);--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "all_dates" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "date_id" varchar(24);--> statement-breakpoint
ALTER TABLE "event_dates" ADD CONSTRAINT "event_dates_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_date_checkins" ADD CONSTRAINT "ticket_date_checkins_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_date_checkins" ADD CONSTRAINT "ticket_date_checkins_date_id_event_dates_id_fk" FOREIGN KEY ("date_id") REFERENCES "public"."event_dates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_dates_event_starts_idx" ON "event_dates" USING btree ("event_id","starts_at");--> statement-breakpoint
CREATE INDEX "ticket_date_checkins_date_idx" ON "ticket_date_checkins" USING btree ("date_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_date_id_event_dates_id_fk" FOREIGN KEY ("date_id") REFERENCES "public"."event_dates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_date_id_event_dates_id_fk" FOREIGN KEY ("date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_date_id_event_dates_id_fk" FOREIGN KEY ("date_id") REFERENCES "public"."event_dates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_date_idx" ON "tickets" USING btree ("date_id");--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_date_or_all" CHECK (not ("ticket_types"."all_dates" and "ticket_types"."date_id" is not null));