import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { idParam, text } from '../../lib/validate.js';
import { attendees, checkedIn, messageOnly, myTickets, publicKey, transferred } from './tickets.responses.js';
import { quantitySchema } from './tickets.schemas.js';
import { toCsv, type TicketsService } from './tickets.service.js';

const eventParams = z.object({ id: idParam('Event id') });
const registerBody = z.object({
  userId: z.string().optional(),
  tickets: quantitySchema.optional(),
});
const checkInBody = z.object({ code: z.string({ error: 'code is required.' }).trim().min(1, 'code is required.').max(300, 'This ticket code is not valid.') });
const ticketParams = z.object({ id: idParam('Ticket id') });
/** The recipient's username or email address (an email is at most 254 characters). */
const transferBody = z.object({ to: text('to', 254) });
const attendeesQuery = z.object({ format: z.enum(['json', 'csv']).default('json') });

/** /api/tickets */
export function createTicketsRouter(deps: { tickets: TicketsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Tickets');

  routes.get(
    '/mine',
    {
      summary: "The caller's tickets with their signed codes (for the QR)",
      access: 'user',
      responses: {
        200: {
          description:
            'Bare array `[{_id, code, checkedInAt, createdAt, orderId, voidedAt, voidReason, transferredFrom, pricePaid, selfCancel:{allowed, reason, refundPercent}, ' +
            'event:{_id, title, date, location, image, isPaid, ticketPrice, status, refundPolicy}}]`.',
          schema: myTickets,
        },
      },
    },
    ({ user }) => deps.tickets.listMine(user.id),
  );

  routes.post(
    '/:id/transfer',
    {
      summary: 'Transfer one of your tickets to another account, by username or email, before the event starts',
      access: 'user',
      description:
        'The recipient gets a new ticket with a newly signed code on the same order, emailed with its QR; the old ticket is void (`voidReason: "transferred"`) ' +
        'and refused at check-in. Nothing changes on a refusal.',
      params: ticketParams,
      body: transferBody,
      responses: {
        200: { description: '`{message, ticket:{_id, eventId}, to:{_id, username}}`.', schema: transferred },
        400: 'Invalid input, the recipient is the caller, or the event has started.',
        404: 'No such ticket of the caller, or no account with that username or email.',
        409: 'The ticket is void (cancelled, transferred, or its event cancelled) or already checked in.',
      },
    },
    ({ params, body, user }) => deps.tickets.transfer(user, params.id, body.to),
  );

  routes.get(
    '/public-key',
    {
      summary: 'The Ed25519 public key that verifies ticket codes offline',
      access: 'public',
      responses: { 200: { description: '`{algorithm, pem, jwk, codeFormat}`.', schema: publicKey } },
    },
    ({ res }) => {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      return deps.tickets.publicKey();
    },
  );

  return router;
}

/**
 * Ticket routes under /api/events (mounted before the events router; only these paths match):
 * register, check-in and the attendee list. Failures answer `{message}` (plus `msg`), as every error does.
 */
export function createEventTicketsRouter(deps: { tickets: TicketsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Tickets');

  routes.post(
    '/register/:id',
    {
      summary: 'Register for an event: free events issue tickets now; paid events confirm a paid order',
      access: 'user',
      self: ({ body }) => body.userId,
      description: 'Failures answer `{message, msg}` with the real status.',
      params: eventParams,
      body: registerBody,
      responses: {
        200: { description: '`{message}`.', schema: messageOnly },
        400: 'Invalid input, the event has taken place or is not open.',
        402: 'A paid event without a paid order: pay first.',
        403: '`userId` is not the caller.',
        404: 'Event not found.',
        409: 'Not enough seats left, or the event was cancelled.',
      },
    },
    ({ params, body, user }) => deps.tickets.register(user.id, params.id, body.tickets ?? 1),
  );

  routes.post(
    '/:id/checkin',
    {
      summary: 'Check a ticket in at the door (organiser or admin); the first scan wins',
      access: 'owner',
      params: eventParams,
      body: checkInBody,
      responses: {
        200: { description: '`{message, ticket:{_id, userId, checkedInAt}}`.', schema: checkedIn },
        400: 'Invalid code, or a ticket for another event.',
        404: 'Event or ticket not found.',
        409: 'Already used (the body adds `checkedInAt`), or void because the event was cancelled (`voidedAt`, `voidReason`).',
      },
    },
    ({ params, body, user }) => deps.tickets.checkIn(user, params.id, body.code),
  );

  routes.get(
    '/:id/attendees',
    {
      summary: 'The attendee list, as JSON or CSV (organiser or admin)',
      access: 'owner',
      params: eventParams,
      query: attendeesQuery,
      responses: {
        200: {
          description: 'JSON: bare array `[{ticketId, userId, username, email, orderId, checkedInAt, issuedAt}]`; `format=csv`: a text/csv attachment.',
          schema: attendees,
        },
        404: 'Event not found.',
      },
    },
    async ({ params, query, user, res }) => {
      const list = await deps.tickets.attendees(user, params.id);
      if (query.format === 'json') return list;
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="attendees-${params.id}.csv"`);
      res.send(
        toCsv(
          ['Ticket', 'User id', 'Username', 'Email', 'Order', 'Issued at', 'Checked in at'],
          list.map((a) => [a.ticketId, a.userId, a.username, a.email, a.orderId, a.issuedAt, a.checkedInAt]),
        ),
      );
    },
  );

  return router;
}
