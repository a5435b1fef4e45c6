import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { organiserList, place } from './waitlist.responses.js';
import { eventParams, joinBody } from './waitlist.schemas.js';
import type { WaitlistService } from './waitlist.service.js';

/** /api/events/:id/waitlist… (mounted under /api/events before the events router). */
export function createWaitlistRouter(deps: { waitlist: WaitlistService }) {
  const { waitlist } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Waitlist');

  routes.post(
    '/:id/waitlist',
    {
      summary: 'Join the waitlist of a sold-out event',
      access: 'user',
      refuseRestricted: true,
      description:
        'First come, first served. When seats free up they are offered to the first person waiting, held for them for WAITLIST_OFFER_MINUTES and announced by ' +
        'email; the offer is taken with the normal checkout (or free registration), and passes on when it runs out.',
      params: eventParams,
      body: joinBody,
      responses: {
        201: { description: 'Your place: `{eventId, seatsAvailable, waiting, entry}`.', schema: place },
        400: 'Invalid quantity, an event not open yet, or one that has started.',
        404: 'Event not found.',
        409: 'Already on the list, seats still available (`seatsAvailable`), no seat limit, or a cancelled event.',
      },
    },
    ({ params, body, user }) => waitlist.join(user, params.id, body.quantity),
  );

  routes.delete(
    '/:id/waitlist',
    {
      summary: 'Leave the waitlist (an offer you hold passes to the next person)',
      access: 'user',
      params: eventParams,
      responses: { 200: { description: 'Your place, now `left`.', schema: place }, 404: 'Not on the waitlist, or event not found.' },
    },
    ({ params, user }) => waitlist.leave(user, params.id),
  );

  routes.get(
    '/:id/waitlist/mine',
    {
      summary: 'Your place on the waitlist and the seats you can buy now',
      access: 'user',
      params: eventParams,
      responses: { 200: { description: '`{eventId, seatsAvailable, waiting, entry}`; `entry` null when you never joined.', schema: place }, 404: 'Event not found.' },
    },
    ({ params, user }) => waitlist.mine(user, params.id),
  );

  routes.get(
    '/:id/waitlist',
    {
      summary: "The event's waitlist (organiser or admin)",
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description: 'Its length and how places ended, and the places: open ones in queue order, then the latest ended ones (at most 500), by username only.',
      params: eventParams,
      responses: {
        200: { description: '`{eventId, length, offered, accepted, expired, left, entries}`.', schema: organiserList },
        403: 'Not the organiser or an admin.',
        404: 'Event not found (or pending and not yours).',
      },
    },
    ({ params, user }) => waitlist.forEvent(user, params.id),
  );
  return router;
}
