import { sql } from 'drizzle-orm';
import type { RetentionDeclaration } from '../../lib/retention.js';

/**
 * What teams erase once an event's retention ends (lib/retention.ts): the email an answered or withdrawn invitation
 * to that one event went to (it named no account). Pending invitations keep it (they can still be accepted), and
 * invitations to all of an organiser's events name no event, so they go only with an account's erasure.
 */
export const teamsRetention: RetentionDeclaration = {
  rows: [
    {
      table: 'team_invitations',
      about: "An event's answered or withdrawn team invitations to an email without an account: the email goes; role, status and dates stay.",
      // '' keeps the invitation naming someone (its check wants an account or an email), but no one in particular.
      erase: { invitee_email: sql`''` },
      rows: ({ eventId }) => sql`event_id = ${eventId} and status <> 'pending' and invitee_email is not null`,
    },
  ],
};
