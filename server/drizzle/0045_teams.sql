CREATE TABLE "team_invitations" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organiser_id" varchar(24) NOT NULL,
	"event_id" varchar(24),
	"invitee_id" varchar(24),
	"invitee_email" text,
	"role" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"responded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_invitations_role_valid" CHECK ("team_invitations"."role" in ('co_organiser', 'finance', 'gate_staff')),
	CONSTRAINT "team_invitations_status_valid" CHECK ("team_invitations"."status" in ('pending', 'accepted', 'declined', 'revoked')),
	CONSTRAINT "team_invitations_invitee" CHECK (("team_invitations"."invitee_id" is null) <> ("team_invitations"."invitee_email" is null))
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organiser_id" varchar(24) NOT NULL,
	"event_id" varchar(24),
	"user_id" varchar(24) NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"invitation_id" varchar(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_role_valid" CHECK ("team_members"."role" in ('co_organiser', 'finance', 'gate_staff'))
);
--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_organiser_id_users_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_invitee_id_users_id_fk" FOREIGN KEY ("invitee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_organiser_id_users_id_fk" FOREIGN KEY ("organiser_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_invitation_id_team_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."team_invitations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_invitations_organiser_idx" ON "team_invitations" USING btree ("organiser_id","status");--> statement-breakpoint
CREATE INDEX "team_invitations_invitee_idx" ON "team_invitations" USING btree ("invitee_id","status");--> statement-breakpoint
CREATE INDEX "team_invitations_email_idx" ON "team_invitations" USING btree (lower("invitee_email"));--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_scope_idx" ON "team_members" USING btree ("organiser_id","user_id",coalesce("event_id", ''));--> statement-breakpoint
CREATE INDEX "team_members_user_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "team_members_event_idx" ON "team_members" USING btree ("event_id");