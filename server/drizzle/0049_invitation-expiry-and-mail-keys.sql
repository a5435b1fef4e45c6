ALTER TABLE "mail_outbox" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
-- Invitations sent before expiry existed get the 14 days (teams.service.ts, INVITATION_TTL_DAYS) from when they were sent.
ALTER TABLE "team_invitations" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "team_invitations" SET "expires_at" = "created_at" + interval '14 days';--> statement-breakpoint
ALTER TABLE "team_invitations" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_dedupe_key_idx" ON "mail_outbox" USING btree ("dedupe_key");
