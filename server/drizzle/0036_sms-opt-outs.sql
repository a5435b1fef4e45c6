CREATE TABLE "sms_opt_outs" (
	"phone" text PRIMARY KEY NOT NULL,
	"sender_id" text,
	"opted_out_at" timestamp with time zone DEFAULT now() NOT NULL
);
