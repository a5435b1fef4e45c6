CREATE TABLE "event_fee_overrides" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"event_id" varchar(24) NOT NULL,
	"percent_bp" integer,
	"fixed" integer,
	"minimum" integer,
	"created_by" varchar(24) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_fee_overrides_valid" CHECK (("event_fee_overrides"."percent_bp" is null and "event_fee_overrides"."fixed" is null and "event_fee_overrides"."minimum" is null) or ("event_fee_overrides"."percent_bp" between 0 and 10000 and "event_fee_overrides"."fixed" >= 0 and "event_fee_overrides"."minimum" >= 0))
);
--> statement-breakpoint
CREATE TABLE "platform_fee_settings" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"percent_bp" integer NOT NULL,
	"fixed" integer NOT NULL,
	"minimum" integer NOT NULL,
	"created_by" varchar(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_fee_settings_valid" CHECK ("platform_fee_settings"."percent_bp" between 0 and 10000 and "platform_fee_settings"."fixed" >= 0 and "platform_fee_settings"."minimum" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fee_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fee_mode" text DEFAULT 'absorbed' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "fee_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "fee_mode" text DEFAULT 'absorbed' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_fee_overrides" ADD CONSTRAINT "event_fee_overrides_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_fee_overrides" ADD CONSTRAINT "event_fee_overrides_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_fee_settings" ADD CONSTRAINT "platform_fee_settings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_fee_overrides_event_idx" ON "event_fee_overrides" USING btree ("event_id","created_at","id");--> statement-breakpoint
CREATE INDEX "platform_fee_settings_created_idx" ON "platform_fee_settings" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_fee_within_amount" CHECK ("refunds"."fee_amount" >= 0 and "refunds"."fee_amount" <= "refunds"."amount");