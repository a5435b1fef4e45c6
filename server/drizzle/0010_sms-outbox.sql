CREATE TABLE "sms_messages" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"dedupe_key" text,
	"purpose" text NOT NULL,
	"phone" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provider_message_id" text,
	"provider_status" text,
	"cost" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_status_valid" CHECK ("sms_messages"."status" in ('queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sms_dedupe_idx" ON "sms_messages" USING btree ("dedupe_key");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_provider_message_idx" ON "sms_messages" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "sms_status_next_idx" ON "sms_messages" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "sms_phone_idx" ON "sms_messages" USING btree ("phone","created_at");