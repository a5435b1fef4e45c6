import { Router, type RequestHandler } from 'express';
import { isId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import { requireAdmin, requireSelf, requireUser } from '../../lib/auth.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import { sendMemoJson } from '../../lib/memo-json.js';
import { parse } from '../../lib/validate.js';
import {
  createEventBody,
  eventIdParams,
  listLimitQuery,
  searchQuery,
  shareBody,
  updateEventBody,
  userIdParams,
} from './events.schemas.js';
import { eventMessages, type EventsService } from './events.service.js';

/** For reads, an id that cannot exist is simply an unknown event. */
function readableId(value: unknown): string {
  if (!isId(value)) throw AppError.notFound(eventMessages.notFound);
  return value;
}

const popularLimit = listLimitQuery(10);
const upcomingLimit = listLimitQuery(20);

/**
 * /api/events. Fixed paths come before `/:id` so they are never read as ids. `counterLimit` guards
 * the public counters (opens, shares) that feed the trending ranking.
 */
export function createEventsRouter(deps: { events: EventsService; counterLimit: RequestHandler }) {
  const { events } = deps;
  const router = Router();
  const doc = apiDocs(router, 'Events');
  const event = { description: 'The event.', schema: shape.ref('Event') };
  const events_ = (description: string) => ({ description, schema: shape.array(shape.ref('Event')) });
  const notFound = 'Event not found (or pending and not yours).';

  doc.get('/', {
    summary: 'Search approved upcoming events (words, place, dates, free only), paged',
    auth: 'public',
    query: searchQuery,
    responses: {
      200: {
        description: '`{items, total, page, limit, pages}`.',
        schema: shape.object({ items: shape.array(shape.ref('Event')), total: 'integer', page: 'integer', limit: 'integer', pages: 'integer' }),
      },
    },
  });
  router.get('/', async (req, res) => {
    sendMemoJson(res, await events.search(parse(searchQuery, req.query)));
  });

  doc.get('/getevnt', {
    summary: 'All events: approved ones for visitors, every event for an admin',
    auth: 'optional',
    responses: { 200: events_('Bare array of events.') },
  });
  router.get('/getevnt', async (req, res) => {
    res.json(await events.list(req.user));
  });

  // Public despite the path: the home and events pages read it.
  doc.get('/admin/approved', {
    summary: 'Approved events (public despite the path)',
    auth: 'public',
    responses: { 200: events_('Bare array of approved events.') },
  });
  router.get('/admin/approved', async (_req, res) => {
    res.json(await events.listApproved());
  });

  doc.get('/admin/pending', {
    summary: 'Events waiting for approval',
    auth: 'admin',
    responses: { 200: events_('Bare array of pending events.') },
  });
  router.get('/admin/pending', async (req, res) => {
    requireAdmin(req);
    res.json(await events.listPending());
  });

  doc.put('/admin/approve/:id', {
    summary: 'Approve (publish) an event',
    auth: 'admin',
    params: eventIdParams,
    responses: { 200: event, 404: 'Event not found.' },
  });
  router.put('/admin/approve/:id', async (req, res) => {
    requireAdmin(req);
    const { id } = parse(eventIdParams, req.params);
    res.json(await events.setStatus(id, 'approved'));
  });

  doc.put('/admin/disapprove/:id', {
    summary: 'Send an event back to pending',
    auth: 'admin',
    params: eventIdParams,
    responses: { 200: event, 404: 'Event not found.' },
  });
  router.put('/admin/disapprove/:id', async (req, res) => {
    requireAdmin(req);
    const { id } = parse(eventIdParams, req.params);
    res.json(await events.setStatus(id, 'pending'));
  });

  doc.get('/popular', {
    summary: 'Trending upcoming events (recent opens, shares and registrations), topped up with the soonest ones',
    auth: 'public',
    query: popularLimit,
    responses: { 200: events_('Bare array, most popular first (limit 10 by default).') },
  });
  router.get('/popular', async (req, res) => {
    res.json(await events.popular(parse(popularLimit, req.query)));
  });

  doc.get('/upcoming', {
    summary: 'Next approved events by date',
    auth: 'public',
    query: upcomingLimit,
    responses: { 200: events_('Bare array, soonest first (limit 20 by default).') },
  });
  router.get('/upcoming', async (req, res) => {
    res.json(await events.upcoming(parse(upcomingLimit, req.query)));
  });

  doc.get('/user/:userId', {
    summary: "A user's own events, pending ones included (self or admin)",
    auth: 'self',
    description: 'An administrator may list any user\'s events.',
    params: userIdParams,
    responses: { 200: events_('Bare array of that user\'s events.') },
  });
  router.get('/user/:userId', async (req, res) => {
    const { userId } = parse(userIdParams, req.params);
    requireSelf(req, userId, { allowAdmin: true });
    res.json(await events.listByUser(userId));
  });

  doc.post('/addevnt', {
    summary: 'Create an event (pending until an admin approves it)',
    auth: 'user',
    description:
      'The organiser is the token\'s user (a `user` field is ignored), the status is always pending. `date` is the Nairobi wall-clock time `YYYY-MM-DDTHH:mm`; without coordinates the location is geocoded. `image` is an upload from POST /api/uploads or an https URL.',
    body: createEventBody,
    responses: { 201: { description: 'The created event.', schema: shape.ref('Event') } },
  });
  router.post('/addevnt', async (req, res) => {
    const user = requireUser(req);
    res.status(201).json(await events.create(parse(createEventBody, req.body), user));
  });

  doc.post('/incrementOpenedCount/:id', {
    summary: 'Count a view of an approved event',
    auth: 'public',
    params: eventIdParams,
    responses: { 204: 'Counted.', 404: 'Event not found or not approved.', 429: 'Too many counts from this address.' },
  });
  router.post('/incrementOpenedCount/:id', deps.counterLimit, async (req, res) => {
    const { id } = parse(eventIdParams, req.params);
    await events.countOpen(id);
    res.status(204).end();
  });

  doc.post('/share-track/:id', {
    summary: 'Count a share of an approved event',
    auth: 'public',
    params: eventIdParams,
    body: shareBody,
    responses: {
      200: { description: '`{msg, shares}`: the share counts by platform.', schema: shape.object({ msg: 'string', shares: shape.object({ whatsapp: 'integer', twitter: 'integer', instagram: 'integer' }) }) },
      404: 'Event not found or not approved.',
      429: 'Too many counts from this address.',
    },
  });
  router.post('/share-track/:id', deps.counterLimit, async (req, res) => {
    const { id } = parse(eventIdParams, req.params);
    const { platform } = parse(shareBody, req.body);
    res.json({ msg: 'Share recorded.', shares: await events.countShare(id, platform) });
  });

  doc.get('/:id/related', {
    summary: 'Upcoming events at the same place',
    auth: 'public',
    description: 'A pending event is visible to its organiser and admins only, like GET /api/events/{id}.',
    responses: { 200: events_('Bare array, at most 3.'), 404: notFound },
  });
  router.get('/:id/related', async (req, res) => {
    res.json(await events.related(readableId(req.params.id), req.user));
  });

  doc.get('/:id', {
    summary: 'One event',
    auth: 'public',
    description: 'A pending event is visible to its organiser and admins only (send the bearer token); others get 404.',
    responses: { 200: event, 404: notFound },
  });
  router.get('/:id', async (req, res) => {
    sendMemoJson(res, await events.get(readableId(req.params.id), req.user));
  });

  doc.put('/:id', {
    summary: 'Edit an event (organiser or admin)',
    auth: 'owner',
    description:
      'Only an admin may change `status`; the organiser cannot be changed. A change of title, description, image, date, location or price ' +
      'by the organiser puts the event back to pending for review: the answer then has `reReview: true` and a `msg` to show (else `reReview: false`).',
    params: eventIdParams,
    body: updateEventBody,
    responses: { 200: event, 404: notFound, 409: 'Capacity below the seats sold plus the seats held by purchases in progress (`ticketsSold`, `seatsHeld`).' },
  });
  router.put('/:id', async (req, res) => {
    const user = requireUser(req);
    const { id } = parse(eventIdParams, req.params);
    res.json(await events.update(id, parse(updateEventBody, req.body), user));
  });

  doc.delete('/:id', {
    summary: 'Delete an event (organiser or admin)',
    auth: 'owner',
    params: eventIdParams,
    responses: { 200: { description: '`{msg}`.', schema: shape.object({ msg: 'string' }) }, 404: notFound, 409: 'The event has ticket orders, pending or paid (`orders`: counts by status), or ticket holders (only an admin may delete it then).' },
  });
  router.delete('/:id', async (req, res) => {
    const user = requireUser(req);
    const { id } = parse(eventIdParams, req.params);
    res.json(await events.remove(id, user));
  });

  return router;
}
