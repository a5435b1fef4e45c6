import { z } from 'zod';
import { TEAM_ROLES } from '../../lib/team-access.js';
import { idParam } from '../../lib/validate.js';

export const idParams = z.object({ id: idParam('Id') });

export const teamQuery = z.object({ eventId: idParam('Event id').optional() });

/** Who to invite (a username, or an email address), as what, and to one event (its id) or all (null). */
export const inviteBody = z.object({
  invitee: z.string().trim().min(1, 'Enter a username or an email address.').max(254),
  role: z.enum(TEAM_ROLES),
  eventId: idParam('Event id').nullable(),
});
