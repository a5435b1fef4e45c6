import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { promoCodeRemoved, promoCodeView, quoteView, ticketTypesView } from './ticket-types.responses.js';
import { eventParams, promoCodeBody, promoParams, quoteBody, ticketTypesBody } from './ticket-types.schemas.js';
import type { TicketTypesService } from './ticket-types.service.js';

/** /api/events/:id/ticket-types, /quote and /promo-codes (mounted under /api/events before the events router). */
export function createTicketTypesRouter(deps: { ticketTypes: TicketTypesService }) {
  const { ticketTypes } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Ticket types and promo codes');
  const notFound = 'Event not found (or pending and not yours).';

  routes.get(
    '/:id/ticket-types',
    {
      summary: "The event's ticket types, what is left of each and whether it is on sale",
      access: 'optional',
      params: eventParams,
      responses: { 200: { description: '`{eventId, capacity, seatsLeft, ticketTypes}`.', schema: ticketTypesView }, 404: notFound },
    },
    ({ params, user }) => ticketTypes.list(params.id, user),
  );

  routes.put(
    '/:id/ticket-types',
    {
      summary: "Set the event's ticket types (organiser or admin)",
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description:
        'The whole list, in the order buyers see it: types with an `_id` are changed, new ones added, missing ones removed (refused for a type already bought). ' +
        'Prices are whole shillings, at least 1 on a paid event; a free event has one free type. The event answers keep `ticketPrice` as the cheapest price and add `ticketPriceMax`.',
      params: eventParams,
      body: ticketTypesBody,
      responses: {
        200: { description: 'The types as GET returns them.', schema: ticketTypesView },
        400: 'Invalid type (the field is named, e.g. `ticketTypes.1.price`).',
        403: 'Not the organiser or an admin.',
        404: notFound,
        409: 'A bought type removed, a capacity below what is sold and held, or a cancelled event.',
      },
    },
    ({ params, user, body }) => ticketTypes.replace(params.id, user, body.ticketTypes),
  );

  routes.post(
    '/:id/quote',
    {
      summary: 'What a purchase would cost (types, quantities and promo code), without holding anything',
      access: 'optional',
      description: 'Worked out by the same rules as the purchase itself; a refusal is the one the purchase would get (e.g. `promoCode` used up, a type sold out).',
      params: eventParams,
      body: quoteBody,
      responses: { 200: { description: '`{eventId, quantity, subtotal, discount, amount, promoCode, fee, feeMode}`.', schema: quoteView }, 400: 'Invalid choice or promo code (field named).', 404: notFound, 409: 'Sold out, not on sale, or code used up.' },
    },
    ({ params, user, body }) => ticketTypes.quote(params.id, user, body),
  );

  routes.get(
    '/:id/promo-codes',
    {
      summary: "The event's promo codes with their uses (organiser or admin)",
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      params: eventParams,
      responses: { 200: { description: 'Bare array.', schema: promoCodeView.array() }, 403: 'Not the organiser or an admin.', 404: notFound },
    },
    ({ params, user }) => ticketTypes.listPromoCodes(params.id, user),
  );

  routes.post(
    '/:id/promo-codes',
    {
      summary: 'Create a promo code (organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description: 'Percent (1-100) or a fixed number of shillings off each ticket it applies to; optional maximum uses, validity window (wall-clock times) and ticket types. An order always costs at least Ksh.1.',
      params: eventParams,
      body: promoCodeBody,
      responses: { 201: { description: 'The code.', schema: promoCodeView }, 400: 'Invalid code (field named), or a free event.', 403: 'Not the organiser or an admin.', 404: notFound, 409: 'The event already has this code.' },
    },
    ({ params, user, body }) => ticketTypes.createPromoCode(params.id, user, body),
  );

  routes.delete(
    '/:id/promo-codes/:codeId',
    {
      summary: 'Delete a promo code, or end it now when orders used it (organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      params: promoParams,
      responses: { 200: { description: '`{deleted, ended, msg}`.', schema: promoCodeRemoved }, 403: 'Not the organiser or an admin.', 404: 'No such code for this event.' },
    },
    ({ params, user }) => ticketTypes.removePromoCode(params.id, params.codeId, user),
  );
  return router;
}
