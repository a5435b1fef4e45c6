CREATE TABLE "sms_opt_outs" (
	"phone" text PRIMARY KEY NOT NULL,
	"sender" text,
	"opted_out_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_shreds" (
	"event_id" varchar(24) PRIMARY KEY NOT NULL,
	"shredded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"shredded_by" varchar(24),
	"reason" text,
	"rows_erased" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_promotions" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "event_shreds" ADD CONSTRAINT "event_shreds_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_shreds" ADD CONSTRAINT "event_shreds_shredded_by_users_id_fk" FOREIGN KEY ("shredded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;