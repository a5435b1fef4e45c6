import { Router } from 'express';
import { AppError } from '../../lib/app-error.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { queuePlace } from './waiting-room.responses.js';
import { eventParams, placeQuery } from './waiting-room.schemas.js';
import type { WaitingRoomService } from './waiting-room.service.js';

/** /api/events/:id/queue (mounted under /api/events before the events router). */
export function createWaitingRoomRouter(deps: { waitingRoom: WaitingRoomService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Waiting room');

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
    ({ params, query, user }) => {
      if (user) return deps.waitingRoom.place(params.id, { userId: user.id });
      if (!query.phone) throw AppError.badRequest('validation_failed', 'Phone number is required.', { field: 'phone', params: { field: 'phone', kind: 'required' } });
      return deps.waitingRoom.place(params.id, { phone: query.phone });
    },
  );

  return router;
}
