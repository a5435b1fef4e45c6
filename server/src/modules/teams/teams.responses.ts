import { z } from 'zod';
import { TEAM_ROLES } from '../../lib/team-access.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the team routes, for the API document. */
const role = z.enum(TEAM_ROLES).meta({ description: 'co_organiser: all but payouts and the team; finance: sales figures, statements and payouts; gate_staff: check-in.' });
const event = z.object({ _id: id, title: z.string() }).nullable().meta({ description: 'The one event, or null for all the organiser’s events (later ones too).' });

export const invitation = z.object({
  _id: id,
  organiser: z.object({ _id: id, username: z.string() }),
  event,
  role,
  invitee: z.string().meta({ description: 'The invited username, or the email the invitation went to when it named no account.' }),
  status: z.enum(['pending', 'expired', 'accepted', 'declined', 'revoked']).meta({ description: '`expired`: pending past `expiresAt`; it cannot be accepted until the organiser resends it.' }),
  expiresAt: dateTime.meta({ description: 'Until when a pending invitation can be accepted (14 days after it was sent or last resent).' }),
  createdAt: dateTime,
});

export const member = z.object({ _id: id, user: z.object({ _id: id, username: z.string() }), event, role, createdAt: dateTime });

export const team = z.object({ members: z.array(member), invitations: z.array(invitation) });

export const membership = z.object({
  _id: id,
  organiser: z.object({ _id: id, username: z.string() }),
  role,
  scope: z.enum(['event', 'all']),
  events: z.array(z.object({ _id: id, title: z.string(), startsAt: dateTime, status: z.string() })),
});

export const invitations = z.array(invitation);
export const memberships = z.array(membership);
export const removed = z.object({ removed: z.literal(true) });
