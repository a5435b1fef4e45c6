import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { eventFee, platformFee } from './fees.responses.js';
import { eventFeeBody, eventParams, feeBody } from './fees.schemas.js';
import type { FeesService } from './fees.service.js';

/** /api/admin/fees and /api/admin/events/:id/fee — the platform fee's settings (docs/decisions/fees.md). */
export function createAdminFeesRouter(deps: { fees: FeesService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payments');
  const invalid = 'Invalid input: a negative amount, a percent over 100 or with more than two decimals, or not a number.';

  routes.get(
    '/fees',
    {
      summary: 'The platform fee per paid ticket and every past setting',
      access: 'admin',
      responses: { 200: { description: '`{fee, history}`: the fee in force and the settings, newest first.', schema: platformFee } },
    },
    () => deps.fees.platform(),
  );

  routes.put(
    '/fees',
    {
      summary: 'Set the platform fee per paid ticket: percent of the price + fixed shillings, at least a minimum',
      access: 'admin',
      description: 'A new setting (the old ones are kept). Orders priced from now on pay it; orders already held keep the fee they were priced with.',
      body: feeBody,
      responses: { 200: { description: '`{fee, history}` after the change.', schema: platformFee }, 400: invalid },
    },
    ({ body, user }) => deps.fees.setPlatform(body, user),
  );

  routes.get(
    '/events/:id/fee',
    {
      summary: "An event's fee: its override, the fee in force and the organiser's fee mode",
      access: 'admin',
      params: eventParams,
      responses: { 200: { description: '`{eventId, feeMode, override, fee}`.', schema: eventFee }, 404: 'Event not found.' },
    },
    ({ params }) => deps.fees.forEvent(params.id),
  );

  routes.put(
    '/events/:id/fee',
    {
      summary: "Override the platform fee for one event (or, with `override: null`, go back to the platform's)",
      access: 'admin',
      body: eventFeeBody,
      params: eventParams,
      responses: { 200: { description: '`{eventId, feeMode, override, fee}` after the change.', schema: eventFee }, 400: invalid, 404: 'Event not found.' },
    },
    ({ params, body, user }) => deps.fees.setEventOverride(params.id, body.override, user),
  );

  return router;
}
