import { Router } from 'express';
import { AppError } from '../../lib/app-error.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { queuePlace } from './waiting-room.responses.js';
import { eventParams, joinBody, placeQuery } from './waiting-room.schemas.js';
import type { WaitingRoomService } from './waiting-room.service.js';

/** /api/events/:id/queue (mounted under /api/events before the events router). */
export function createWaitingRoomRouter(deps: { waitingRoom: WaitingRoomService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Waiting room');

  /** Signed in: the account; a guest: the purchase's phone, which they must name. */
  const memberOf = (user: { id: string } | undefined, phone: string | undefined) => {
    if (user) return { userId: user.id };
    if (!phone) throw AppError.badRequest('validation_failed', 'Phone number is required.', { field: 'phone', params: { field: 'phone', kind: 'required' } });
    return { phone };
  };

  routes.post(
    '/:id/queue',
    {
      summary: 'Take your place in the line of a sale (before buying)',
      access: 'optional',
      description:
        'Asked by our client before POST /api/stkPush: while nobody waits you are admitted at once; in a busy sale you get a number in arrival order (kept: asking again never moves you back). ' +
        'Then ask GET /api/events/:id/queue every `pollAfterMs` until `admitted`, and buy. A purchase without this joins the line itself (429 `waiting_room_queued`).',
      params: eventParams,
      body: joinBody,
      responses: { 200: { description: 'Your place.', schema: queuePlace }, 400: 'A guest without a valid phone.' },
    },
    ({ params, body, user }) => deps.waitingRoom.place(params.id, memberOf(user, body.phone), true),
  );

  routes.get(
    '/:id/queue',
    {
      summary: 'Your place in the line of a busy sale',
      access: 'optional',
      description:
        'While many buyers arrive at once, a purchase (POST /api/stkPush) answers 429 `waiting_room_queued` with your number in the line, which is kept. ' +
        'Ask here, every `pollAfterMs`, until `admitted`, then buy again. Signed in: your account’s place; a guest names the purchase’s `phone`.',
      params: eventParams,
      query: placeQuery,
      responses: { 200: { description: 'Your place.', schema: queuePlace }, 400: 'A guest without a valid phone.' },
    },
    ({ params, query, user }) => deps.waitingRoom.place(params.id, memberOf(user, query.phone)),
  );

  return router;
}
