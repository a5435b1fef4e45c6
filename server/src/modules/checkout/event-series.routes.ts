import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';
import { dateChangesBody, dateParams, newDateBody, removeDateQuery, seriesParams } from './event-series.schemas.js';
import type { EventSeriesService } from './event-series.handler.js';

const dateWithSeats = z
  .object({
    _id: id,
    startsAt: dateTime,
    endsAt: dateTime.nullable(),
    capacity: z.int().nullable(),
    status: z.enum(['active', 'cancelled']),
    sold: z.int().meta({ description: 'Valid tickets for this date (all-dates passes aside).' }),
    seatsLeft: z.int().nullable().meta({ description: 'Seats left counting passes and live holds; null: no limit (or cancelled).' }),
  })
  .meta({ id: 'EventDateSeats' });
const dateList = z.object({ eventId: id, dates: z.array(dateWithSeats) });
const removed = z.object({ msg: z.string(), removed: z.boolean(), cancelled: z.boolean(), ticketsVoided: z.int(), ordersReleased: z.int(), refunds: z.int() });

/** /api/events/:id/dates (docs/decisions/event-series.md), mounted under /api/events before the events router. */
export function createEventSeriesRouter(deps: { series: EventSeriesService }) {
  const { series } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Event series');
  const notFound = 'Event not found (or pending and not yours).';

  routes.get(
    '/:id/dates',
    {
      summary: "An event series' dates with what is sold and left on each",
      access: 'optional',
      description: 'Empty for an event with one date.',
      params: seriesParams,
      responses: { 200: { description: '`{eventId, dates}`.', schema: dateList }, 404: notFound },
    },
    ({ params, user }) => series.list(params.id, user),
  );

  routes.post(
    '/:id/dates',
    {
      summary: 'Add a date (organiser, co-organiser or admin); the first turns the event into a series',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description: "The event's own date becomes the series' first date (with its capacity, and what was sold for it). Each date has its own seats.",
      params: seriesParams,
      body: newDateBody,
      responses: { 201: { description: 'The date.', schema: dateWithSeats }, 400: 'Invalid date (in the past, end before start) or capacity.', 403: 'Not the organiser or an admin.', 404: notFound, 409: 'A cancelled event.' },
    },
    ({ params, user, body }) => series.add(params.id, user, body),
  );

  routes.patch(
    '/:id/dates/:dateId',
    {
      summary: 'Move a date or change its seats (organiser, co-organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      params: dateParams,
      body: dateChangesBody,
      responses: {
        200: { description: 'The date.', schema: dateWithSeats },
        400: 'Invalid date (in the past, end before start) or capacity.',
        403: 'Not the organiser or an admin.',
        404: 'No such date of this event.',
        409: 'A capacity below what is sold and held (`event_date_capacity_below_sold`), or a cancelled date.',
      },
    },
    ({ params, user, body }) => series.update(params.id, params.dateId, user, body),
  );

  routes.delete(
    '/:id/dates/:dateId',
    {
      summary: 'Remove a date, or cancel it when it has orders (organiser, co-organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description:
        'A date nobody bought is removed. One with orders is cancelled only with `?confirm=true` (and an optional `reason`): its tickets void, its paid orders are refunded in full ' +
        'through the refunds ledger (as when an event is cancelled), its holds released; all-dates passes stay valid for the other dates.',
      params: dateParams,
      query: removeDateQuery,
      responses: {
        200: { description: '`{msg, removed, cancelled, ticketsVoided, ordersReleased, refunds}`.', schema: removed },
        403: 'Not the organiser or an admin.',
        404: 'No such date of this event.',
        409: 'Sold tickets and no `confirm` (`event_date_confirm_cancel`), the last active date, a cancelled date, or ticket types tied to it.',
      },
    },
    ({ params, user, query }) => series.remove(params.id, params.dateId, user, { confirm: query.confirm === 'true', reason: query.reason ?? 'The organiser cancelled this date.' }),
  );
  return router;
}
