import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { idParam, text } from '../../lib/validate.js';
import { pageQuery } from '../../lib/keyset-page.js';
import { timePageQuery } from '../../lib/time-cursor.js';
import { attendeePage, attendees, checkedIn, gateList, messageOnly, myTicketPage, myTickets, publicKey, syncedScans, transferred } from './tickets.responses.js';
import { quantitySchema } from './tickets.schemas.js';
import { toCsv, type TicketsService } from './tickets.service.js';

const eventParams = z.object({ id: idParam('Event id') });
const registerBody = z.object({
  userId: z.string().optional(),
  tickets: quantitySchema.optional(),
  /** On a free event series (docs/decisions/event-series.md): the date registered for. */
  dateId: idParam('dateId').optional(),
});
/** The name staff gave a gate device ("Gate B"), kept on the device. */
const deviceName = (field: string) => text(field, 40);
const checkInBody = z.object({
  code: z.string({ error: 'code is required.' }).trim().min(1, 'code is required.').max(300, 'This ticket code is not valid.'),
  device: deviceName('device').optional(),
  /** On an event series: the date the door is admitting for (docs/decisions/event-series.md). */
  dateId: idParam('dateId').optional(),
});
/** A ticket's QR code is drawn from its code on the device: 20 tickets are a few kilobytes. */
const myTicketsPageQuery = z.object(timePageQuery(20));
const MAX_SYNC_SCANS = 500;
const syncBody = z.object({
  sentAt: z.iso.datetime({ offset: true, error: "sentAt must be the device's clock as an ISO date-time." }).optional(),
  scans: z
    .array(
      z.object({
        ticketCode: z.string({ error: 'ticketCode is required.' }).trim().min(1, 'ticketCode is required.').max(300, 'ticketCode is not valid.'),
        scannedAt: z.iso.datetime({ offset: true, error: 'scannedAt must be an ISO date-time.' }),
        device: deviceName('device'),
        /** On an event series: the date the gate admitted for. */
        dateId: idParam('dateId').optional(),
      }),
      { error: 'scans must be a list.' },
    )
    .min(1, 'scans must not be empty.')
    .max(MAX_SYNC_SCANS, `scans: at most ${MAX_SYNC_SCANS} per request.`),
});
const ticketParams = z.object({ id: idParam('Ticket id') });
/** The recipient's username or email address (an email is at most 254 characters). */
const transferBody = z.object({ to: text('to', 254) });
const attendeesQuery = z.object({ format: z.enum(['json', 'csv']).default('json') });
/** Attendees per page of the check-in screen. */
const ATTENDEES_PAGE_SIZE = 50;
const attendeePageQuery = z.object(pageQuery(ATTENDEES_PAGE_SIZE, 2));

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
            'Bare array `[{_id, code, checkedInAt, createdAt, orderId, voidedAt, voidReason, transferredFrom, pricePaid, paidByHolder, ticketType, selfCancel:{allowed, reason, refundPercent}, ' +
            'event:{_id, title, date, location, image, isPaid, ticketPrice, status, refundPolicy}}]`.',
          schema: myTickets,
        },
      },
    },
    ({ user }) => deps.tickets.listMine(user.id),
  );

  routes.get(
    '/mine/paged',
    {
      summary: "The caller's tickets, a page at a time (My Tickets)",
      access: 'user',
      description: 'The paged form of GET /api/tickets/mine, same order (event date, then ticket), each ticket with its `position` among that event\'s tickets.',
      query: myTicketsPageQuery,
      responses: { 200: { description: '`{items, total, nextCursor}`: items as in GET /api/tickets/mine, plus `position:{index, of}`.', schema: myTicketPage } },
    },
    ({ user, query }) => deps.tickets.pageMine(user.id, query),
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
      refuseRestricted: true,
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
    ({ params, body, user }) => deps.tickets.register(user.id, params.id, body.tickets ?? 1, body.dateId),
  );

  routes.post(
    '/:id/checkin',
    {
      summary: 'Check a ticket in at the door (organiser or admin); the first scan wins',
      access: 'owner',
      team: { permission: 'checkin', event: ({ params }) => params.id },
      params: eventParams,
      body: checkInBody,
      responses: {
        200: { description: '`{message, ticket:{_id, userId, checkedInAt}}`.', schema: checkedIn },
        400: 'Invalid code, a ticket for another event, or no `dateId` on an event series (`checkin_date_required`).',
        404: 'Event or ticket not found.',
        409: 'Already used (on a series: on this date; the body adds `checkedInAt` and `checkedInDevice`), void (`voidedAt`, `voidReason`), or for another date of a series (`checkin_wrong_date`).',
      },
    },
    ({ params, body, user }) => deps.tickets.checkIn(user, params.id, body.code, body.device ?? null, body.dateId),
  );

  routes.post(
    '/:id/checkin/sync',
    {
      summary: "A gate device's offline scans (organiser or admin); across devices the earliest scan wins",
      access: 'owner',
      team: { permission: 'checkin', event: ({ params }) => params.id },
      description:
        'Each scan `{ticketCode, scannedAt, device}` is answered `accepted`, `duplicate` (with the `first` device and time), `void` (with the reason) or `invalid`, ' +
        "in the order sent. `sentAt` (the device's clock when sending) corrects the scan times for the device's clock offset. Idempotent: a retried scan " +
        '(same ticket, device and `scannedAt`) records nothing new and is answered from the current state.',
      params: eventParams,
      body: syncBody,
      responses: {
        200: { description: '`{serverTime, clockOffsetMs, results:[{ticketCode, scannedAt, device, status, ticketId?, checkedInAt?, first?, voidReason?, message?}]}`.', schema: syncedScans },
        404: 'Event not found.',
      },
    },
    ({ params, body, user }) => deps.tickets.syncScans(user, params.id, body),
  );

  routes.get(
    '/:id/gate-list',
    {
      summary: 'What a gate device keeps to check tickets offline: every ticket (void ones too), flagged double scans, the public key (organiser or admin)',
      access: 'owner',
      team: { permission: 'checkin', event: ({ params }) => params.id },
      params: eventParams,
      responses: {
        200: { description: '`{eventId, generatedAt, publicKey, tickets:[{ticketId, username, checkedInAt, checkedInDevice, voidedAt, voidReason, …}], flagged}`.', schema: gateList },
        404: 'Event not found.',
      },
    },
    ({ params, user, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      return deps.tickets.gateList(user, params.id);
    },
  );

  routes.get(
    '/:id/attendees/paged',
    {
      summary: 'A page of the attendee list in username order (organiser or admin)',
      access: 'owner',
      team: { permission: 'attendees', event: ({ params }) => params.id },
      description: "Keyset pages: pass the answer's `nextCursor` as `cursor` for the next page. The whole list stays available as JSON or CSV at GET /api/events/:id/attendees.",
      params: eventParams,
      query: attendeePageQuery,
      responses: {
        200: { description: '`{items:[{ticketId, userId, username, email, orderId, checkedInAt, issuedAt}], total, nextCursor, checkedIn}`.', schema: attendeePage },
        404: 'Event not found.',
      },
    },
    ({ params, query, user }) => deps.tickets.attendeePage(user, params.id, query),
  );

  routes.get(
    '/:id/attendees',
    {
      summary: 'The attendee list, as JSON or CSV (organiser or admin)',
      access: 'owner',
      team: { permission: 'attendees', event: ({ params }) => params.id },
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
      if (query.format === 'json') return deps.tickets.attendees(user, params.id);
      // One more column per checkout question (docs/decisions/checkout-questions.md), after the fixed ones.
      const { questions, attendees: list } = await deps.tickets.attendeesWithQuestions(user, params.id);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="attendees-${params.id}.csv"`);
      res.send(
        toCsv(
          ['Ticket', 'User id', 'Username', 'Email', 'Order', 'Issued at', 'Checked in at', ...questions.map((question) => question.label)],
          list.map((a) => [
            a.ticketId,
            a.userId,
            a.username,
            a.email,
            a.orderId,
            a.issuedAt,
            a.checkedInAt,
            ...questions.map((question) => a.answers.find((answer) => answer.questionId === question._id)?.answer ?? ''),
          ]),
        ),
      );
    },
  );

  return router;
}
