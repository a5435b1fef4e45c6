import { Router } from 'express';
import { z } from 'zod';
import { requireSelfIfPresent, requireUser } from '../../lib/auth.js';
import { AppError } from '../../lib/app-error.js';
import { errorBody } from '../../lib/error-handler.js';
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
  router.get('/mine', async (req, res) => {
    const user = requireUser(req);
    res.json(await deps.tickets.listMine(user.id));
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

  router.post('/:id/checkin', async (req, res) => {
    const { id } = parse(eventParams, req.params);
    const user = requireUser(req);
    const { code } = parse(checkInBody, req.body);
    res.json(await deps.tickets.checkIn(user, id, code));
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
