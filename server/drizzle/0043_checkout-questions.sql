CREATE TABLE "checkout_answers" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"order_id" varchar(24) NOT NULL,
	"event_id" varchar(24) NOT NULL,
	"question_id" varchar(24) NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"attendee" integer DEFAULT 0 NOT NULL,
	"answer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_answers_attendee_valid" CHECK ("checkout_answers"."attendee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "checkout_questions" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"event_id" varchar(24) NOT NULL,
	"ticket_type_id" varchar(24),
	"label" text NOT NULL,
	"kind" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"per" text DEFAULT 'order' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_questions_kind_valid" CHECK ("checkout_questions"."kind" in ('text', 'choice', 'yes_no', 'phone', 'email')),
	CONSTRAINT "checkout_questions_per_valid" CHECK ("checkout_questions"."per" in ('order', 'attendee'))
);
--> statement-breakpoint
ALTER TABLE "checkout_answers" ADD CONSTRAINT "checkout_answers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_answers" ADD CONSTRAINT "checkout_answers_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_answers" ADD CONSTRAINT "checkout_answers_question_id_checkout_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."checkout_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_answers" ADD CONSTRAINT "checkout_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_questions" ADD CONSTRAINT "checkout_questions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_questions" ADD CONSTRAINT "checkout_questions_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_answers_seat_idx" ON "checkout_answers" USING btree ("order_id","question_id","attendee");--> statement-breakpoint
CREATE INDEX "checkout_answers_event_idx" ON "checkout_answers" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "checkout_answers_user_idx" ON "checkout_answers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "checkout_questions_event_idx" ON "checkout_questions" USING btree ("event_id","position");