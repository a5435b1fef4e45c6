import compression from 'compression';
import { Router, type RequestHandler } from 'express';
import { isId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import { sendMemoJson } from '../../lib/memo-json.js';
import { declareRoutes } from '../../lib/route-declaration.js';
import { adminEventPage, deleted, eventList, eventPage, eventResponse, listedEventPage, pendingChangeAnswer, pendingChangeList, shareCounts } from './events.responses.js';
import {
  adminEventsQuery,
  createEventBody,
  eventIdParams,
  eventPageQuery,
  listLimitQuery,
  rejectChangeBody,
  searchQuery,
  shareBody,
  updateEventBody,
  userIdParams,
} from './events.schemas.js';
import { eventMessages, type EventsService } from './events.service.js';

/** For reads, an id that cannot exist is simply an unknown event. */
function readableId(value: unknown): string {
  if (!isId(value)) throw AppError.notFound('event_not_found', eventMessages.notFound);
  return value;
}

const popularLimit = listLimitQuery(10);
const upcomingLimit = listLimitQuery(20);

/**
 * /api/events. Fixed paths come before `/:id` so they are never read as ids. `counterLimit` guards
 * the public counters (opens, shares) that feed the trending ranking.
 */
export function createEventsRouter(deps: { events: EventsService; counterLimit: RequestHandler; listLimit: RequestHandler }) {
  const { events } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Events');
  const event = { description: 'The event.', schema: eventResponse };
  const list = (description: string) => ({ description, schema: eventList });
  const notFound = 'Event not found (or pending and not yours).';
  // The whole lists are megabytes of JSON at scale: compressed on the way out (Brotli or gzip, as accepted).
  const compressWholeList = compression();
  const wholeListDescription =
    'Serialized once per change to the events, compressed when the client accepts it (Brotli or gzip), `ETag` with 304 on a repeat request; limited per client address.';

  routes.get(
    '/',
    {
      summary: 'Search approved upcoming events (words, place, dates, free only), paged',
      access: 'public',
      query: searchQuery,
      responses: {
        200: { description: '`{items, total, page, limit, pages}`, plus `totalIsEstimate`, `nextCursor` (keyset paging) and `correctedQuery` (typos).', schema: eventPage },
      },
    },
    async ({ query, res }) => sendMemoJson(res, await events.search(query)),
  );

  routes.get(
    '/getevnt',
    {
      summary: 'All events: approved ones for visitors, every event for an admin',
      access: 'optional',
      description: wholeListDescription,
      use: [deps.listLimit, compressWholeList],
      responses: { 200: list('Bare array of events.'), 304: 'Unchanged since the ETag sent in If-None-Match.', 429: 'Too many list requests from this address.' },
    },
    ({ req, res, user }) => events.sendList(req, res, user),
  );

  // Public despite the path: the home and events pages read it.
  routes.get(
    '/admin/approved',
    {
      summary: 'Approved events (public despite the path)',
      access: 'public',
      description: wholeListDescription,
      use: [deps.listLimit, compressWholeList],
      responses: { 200: list('Bare array of approved events.'), 304: 'Unchanged since the ETag sent in If-None-Match.', 429: 'Too many list requests from this address.' },
    },
    ({ req, res }) => events.sendApproved(req, res),
  );

  routes.get(
    '/admin/pending',
    { summary: 'Events waiting for approval', access: 'admin', responses: { 200: list('Bare array of pending events.') } },
    () => events.listPending(),
  );

  routes.put(
    '/admin/approve/:id',
    { summary: 'Approve (publish) an event', access: 'admin', params: eventIdParams, responses: { 200: event, 404: 'Event not found.' } },
    ({ params }) => events.setStatus(params.id, 'approved'),
  );

  routes.put(
    '/admin/disapprove/:id',
    { summary: 'Send an event back to pending', access: 'admin', params: eventIdParams, responses: { 200: event, 404: 'Event not found.' } },
    ({ params }) => events.setStatus(params.id, 'pending'),
  );

  routes.get(
    '/admin/changes',
    {
      summary: "Organisers' changes to published events waiting for review, oldest first",
      access: 'admin',
      description: 'Each set lists its changed fields with the published and the proposed value side by side, and the published event. At most 100.',
      responses: { 200: { description: '`{items}`: the sets waiting.', schema: pendingChangeList } },
    },
    () => events.listChanges(),
  );

  routes.put(
    '/admin/changes/:id/approve',
    {
      summary: "Approve an event's waiting changes: they replace the published version",
      access: 'admin',
      description:
        'Applied in one transaction. When the date or place moves, every holder of a valid ticket is emailed (in their language) through the mail outbox; ' +
        '`holdersNotified` says how many. Sales paused by the changes resume.',
      params: eventIdParams,
      responses: {
        200: event,
        404: 'Event not found, or no changes waiting.',
        409: 'The event was cancelled, the proposed date has passed, or the event sells several ticket types (a price change cannot apply).',
      },
    },
    ({ params }) => events.approveChange(params.id),
  );

  routes.put(
    '/admin/changes/:id/reject',
    {
      summary: "Reject an event's waiting changes: the published version stays",
      access: 'admin',
      description: 'The optional `reason` is shown to the organiser. Sales paused by the changes resume.',
      params: eventIdParams,
      body: rejectChangeBody,
      responses: { 200: { description: '`{msg, pendingChange}`: the rejected set.', schema: pendingChangeAnswer }, 404: 'Event not found, or no changes waiting.' },
    },
    ({ params, body }) => events.rejectChange(params.id, body.reason),
  );

  routes.get(
    '/popular',
    {
      summary: 'Trending upcoming events (recent opens, shares and registrations), topped up with the soonest ones',
      access: 'public',
      query: popularLimit,
      responses: { 200: list('Bare array, most popular first (limit 10 by default).') },
    },
    ({ query }) => events.popular(query),
  );

  routes.get(
    '/upcoming',
    { summary: 'Next approved events by date', access: 'public', query: upcomingLimit, responses: { 200: list('Bare array, soonest first (limit 20 by default).') } },
    ({ query }) => events.upcoming(query),
  );

  routes.get(
    '/user/:userId',
    {
      summary: "A user's own events, pending ones included (self or admin)",
      access: 'self',
      self: ({ params }) => params.userId,
      allowAdmin: true,
      description: "An administrator may list any user's events.",
      params: userIdParams,
      responses: { 200: list("Bare array of that user's events.") },
    },
    ({ params }) => events.listByUser(params.userId),
  );

  routes.get(
    '/user/:userId/paged',
    {
      summary: "A user's own events by date, pending ones included, a page at a time (self or admin)",
      access: 'self',
      self: ({ params }) => params.userId,
      allowAdmin: true,
      description: 'The paged form of GET /api/events/user/{userId}, for lists that grow: soonest first, then by id.',
      params: userIdParams,
      query: eventPageQuery,
      responses: { 200: { description: "`{items, total, nextCursor}`: a page of that user's events.", schema: listedEventPage } },
    },
    ({ params, query }) => events.pageByUser(params.userId, query),
  );

  routes.post(
    '/addevnt',
    {
      summary: 'Create an event (pending until an admin approves it)',
      access: 'user',
      refuseRestricted: true,
      description:
        "The organiser is the token's user (a `user` field is ignored), the status is always pending. `date` is the Nairobi wall-clock time `YYYY-MM-DDTHH:mm`; without coordinates the location is geocoded. `image` is an upload from POST /api/uploads or an https URL.",
      body: createEventBody,
      responses: { 201: { description: 'The created event.', schema: eventResponse } },
    },
    ({ body, user }) => events.create(body, user),
  );

  routes.post(
    '/incrementOpenedCount/:id',
    {
      summary: 'Count a view of an approved event',
      access: 'public',
      use: [deps.counterLimit],
      params: eventIdParams,
      responses: { 204: 'Counted.', 404: 'Event not found or not approved.', 429: 'Too many counts from this address.' },
    },
    async ({ params, res }) => {
      await events.countOpen(params.id);
      res.status(204).end();
    },
  );

  routes.post(
    '/share-track/:id',
    {
      summary: 'Count a share of an approved event',
      access: 'public',
      use: [deps.counterLimit],
      params: eventIdParams,
      body: shareBody,
      responses: {
        200: { description: '`{msg, shares}`: the share counts by platform.', schema: shareCounts },
        404: 'Event not found or not approved.',
        429: 'Too many counts from this address.',
      },
    },
    async ({ params, body }) => ({ msg: 'Share recorded.', shares: await events.countShare(params.id, body.platform) }),
  );

  routes.get(
    '/:id/related',
    {
      summary: 'Upcoming events at the same place',
      access: 'optional',
      description: 'A pending event is visible to its organiser and admins only, like GET /api/events/{id}.',
      responses: { 200: list('Bare array, at most 3.'), 404: notFound },
    },
    ({ req, user }) => events.related(readableId(req.params.id), user),
  );

  routes.get(
    '/:id/pending-change',
    {
      summary: "The organiser's changes to a published event waiting for review (organiser or admin)",
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description: 'The set waiting for review, or the last rejected one with its reason, or null.',
      params: eventIdParams,
      responses: { 200: { description: '`{pendingChange}`.', schema: pendingChangeAnswer }, 404: notFound },
    },
    ({ params, user }) => events.pendingChange(params.id, user),
  );

  routes.delete(
    '/:id/pending-change',
    {
      summary: 'Withdraw the changes waiting for review, or dismiss a rejected set (organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description: 'The published version stays as it is; sales paused by the changes resume.',
      params: eventIdParams,
      responses: { 200: { description: '`{msg, pendingChange: null}`.', schema: pendingChangeAnswer }, 404: 'Event not found, or no changes to withdraw.' },
    },
    ({ params, user }) => events.withdrawChange(params.id, user),
  );

  routes.get(
    '/:id',
    {
      summary: 'One event',
      access: 'optional',
      description: 'A pending event is visible to its organiser and admins only (send the bearer token); others get 404.',
      responses: { 200: event, 404: notFound },
    },
    async ({ req, res, user }) => sendMemoJson(res, await events.get(readableId(req.params.id), user)),
  );

  routes.put(
    '/:id',
    {
      summary: 'Edit an event (organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description:
        'Only an admin may change `status`; the organiser cannot be changed. On a published event, the organiser\'s change of title, description, image, ' +
        'date, location or price waits for review beside the published version, which stays live and on sale (a new date or place, or a higher price, ' +
        'pauses sales until an admin decides): the answer has `pendingChange` and a `msg` to show. Capacity, refund policy and coordinates apply at once. ' +
        'A never-approved event\'s edit simply applies. `reReview` stays false: no edit takes a published event off the public pages any more.',
      params: eventIdParams,
      body: updateEventBody,
      responses: { 200: event, 404: notFound, 409: 'Capacity below the seats sold plus the seats held by purchases in progress (`ticketsSold`, `seatsHeld`).' },
    },
    ({ params, body, user }) => events.update(params.id, body, user),
  );

  routes.delete(
    '/:id',
    {
      summary: 'Delete an event (organiser or admin); one with orders is cancelled instead',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description:
        'An event with ticket orders is never deleted (its buyers\' payments are kept): it is cancelled as by POST /api/events/{id}/cancel ' +
        'with the reason "Deleted by the organiser", and the answer says `cancelled: true`.',
      params: eventIdParams,
      responses: {
        200: { description: '`{msg}`, plus `cancelled: true` when the event was cancelled instead.', schema: deleted },
        404: notFound,
        409: 'The event has ticket holders (only an admin may delete it then), or it has orders and is already cancelled.',
      },
    },
    ({ params, user }) => events.remove(params.id, user),
  );

  return router;
}

/** /api/admin/events: every event for the admin pages, a page at a time, with the count of each status. */
export function createAdminEventsRouter(deps: { events: EventsService }) {
  const router = Router();
  declareRoutes(router, 'Events').get(
    '/events',
    {
      summary: 'Events of any status for the admin pages, paged, with the count of each status',
      access: 'admin',
      description: 'Filters: `status`, `user` (an organiser), `q` (part of the title or place). `total` counts the filtered list; `counts` gives every status for the tabs.',
      query: adminEventsQuery,
      responses: { 200: { description: '`{items, total, nextCursor, counts:{pending, approved, cancelled, all}}`.', schema: adminEventPage } },
    },
    ({ query }) => deps.events.adminPage(query),
  );
  return router;
}
