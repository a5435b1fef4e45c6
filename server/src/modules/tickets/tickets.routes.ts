import { Router } from 'express';
import { z } from 'zod';
import { requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { AppError } from '../../lib/app-error.js';
import { errorBody } from '../../lib/error-handler.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import { idParam, parse } from '../../lib/validate.js';
import { quantitySchema } from '../payments/payments.schemas.js';
import { toCsv, type TicketsService } from './tickets.service.js';

const eventParams = z.object({ id: idParam('Event id') });
const registerBody = z.object({
  userId: z.string().optional(),
  tickets: quantitySchema.optional(),
});
const checkInBody = z.object({ code: z.string({ error: 'code is required.' }).trim().min(1, 'code is required.').max(300, 'This ticket code is not valid.') });
const attendeesQuery = z.object({ format: z.enum(['json', 'csv']).default('json') });

/** /api/tickets */
export function createTicketsRouter(deps: { tickets: TicketsService }) {
  const router = Router();
  const doc = apiDocs(router, 'Tickets');
  doc.get('/mine', {
    summary: "The caller's tickets with their signed codes (for the QR)",
    auth: 'user',
    responses: { 200: 'Bare array `[{_id, code, checkedInAt, createdAt, orderId, event:{_id, title, date, location, image, isPaid, ticketPrice}}]`.' },
  });
  router.get('/mine', async (req, res) => {
    const user = requireUser(req);
    res.json(await deps.tickets.listMine(user.id));
  });
  doc.get('/public-key', {
    summary: 'The Ed25519 public key that verifies ticket codes offline',
    auth: 'public',
    responses: {
      200: {
        description: '`{algorithm, pem, jwk, codeFormat}`.',
        schema: shape.object({ algorithm: { const: 'Ed25519' }, pem: 'string', jwk: shape.object({ kty: 'string', crv: 'string', x: 'string' }), codeFormat: 'string' }),
      },
    },
  });
  router.get('/public-key', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(deps.tickets.publicKey());
  });
  return router;
}

/**
 * Ticket routes under /api/events (mounted before the events router; only these paths match):
 * register, check-in and the attendee list. Register failures answer `{message}` (plus `msg`).
 */
export function createEventTicketsRouter(deps: { tickets: TicketsService }) {
  const router = Router();
  const doc = apiDocs(router, 'Tickets');

  doc.post('/register/:id', {
    summary: 'Register for an event: free events issue tickets now; paid events confirm a paid order',
    auth: 'user',
    description: 'Failures answer `{message, msg}` with the real status.',
    params: eventParams,
    body: registerBody,
    responses: {
      200: { description: '`{message}`.', schema: shape.object({ message: 'string' }) },
      400: 'Invalid input, the event has taken place or is not open.',
      402: 'A paid event without a paid order: pay first.',
      403: '`userId` is not the caller.',
      404: 'Event not found.',
      409: 'Not enough seats left.',
    },
  });
  router.post('/register/:id', async (req, res) => {
    try {
      const { id } = parse(eventParams, req.params);
      const body = parse(registerBody, req.body);
      const user = requireSelfIfPresent(req, body.userId);
      res.json(await deps.tickets.register(user.id, id, body.tickets ?? 1));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      res.status(error.status).json(errorBody(error.message, error.details?.field ? { field: error.details.field } : undefined));
    }
  });

  doc.post('/:id/checkin', {
    summary: 'Check a ticket in at the door (organiser or admin); the first scan wins',
    auth: 'owner',
    params: eventParams,
    body: checkInBody,
    responses: {
      200: { description: '`{message, ticket:{_id, userId, checkedInAt}}`.', schema: shape.object({ message: 'string', ticket: shape.object({ _id: 'string', userId: 'string', checkedInAt: 'string' }) }) },
      400: 'Invalid code, or a ticket for another event.',
      404: 'Event or ticket not found.',
      409: 'Already used: the body adds `checkedInAt`.',
    },
  });
  router.post('/:id/checkin', async (req, res) => {
    const { id } = parse(eventParams, req.params);
    const user = requireUser(req);
    const { code } = parse(checkInBody, req.body);
    res.json(await deps.tickets.checkIn(user, id, code));
  });

  doc.get('/:id/attendees', {
    summary: 'The attendee list, as JSON or CSV (organiser or admin)',
    auth: 'owner',
    params: eventParams,
    query: attendeesQuery,
    responses: {
      200: {
        description: 'JSON: bare array `[{ticketId, userId, username, email, orderId, checkedInAt, issuedAt}]`; `format=csv`: a text/csv attachment.',
        schema: shape.array({ type: 'object', properties: { ticketId: { type: 'string' }, userId: { type: 'string' }, username: { type: 'string' }, email: { type: 'string' }, orderId: { type: ['string', 'null'] }, checkedInAt: { type: ['string', 'null'] }, issuedAt: { type: 'string' } } }),
      },
      404: 'Event not found.',
    },
  });
  router.get('/:id/attendees', async (req, res) => {
    const { id } = parse(eventParams, req.params);
    const user = requireUser(req);
    const { format } = parse(attendeesQuery, req.query);
    const attendees = await deps.tickets.attendees(user, id);
    if (format === 'csv') {
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="attendees-${id}.csv"`);
      res.send(
        toCsv(
          ['Ticket', 'User id', 'Username', 'Email', 'Order', 'Issued at', 'Checked in at'],
          attendees.map((a) => [a.ticketId, a.userId, a.username, a.email, a.orderId, a.issuedAt, a.checkedInAt]),
        ),
      );
      return;
    }
    res.json(attendees);
  });

  return router;
}
