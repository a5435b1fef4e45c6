import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { toCsv } from '../tickets/index.js';
import { eventDashboard } from './dashboard.responses.js';
import { dashboardQuery, eventParams } from './dashboard.schemas.js';
import type { EventDashboardService } from './dashboard.service.js';

/** GET /api/events/:id/dashboard (mounted under /api/events before the events router). */
export function createEventDashboardRouter(deps: { dashboard: EventDashboardService }) {
  const router = Router();
  declareRoutes(router, 'Events').get(
    '/:id/dashboard',
    {
      summary: "The event's dashboard: sales over time, revenue, seats, check-ins (organiser or admin)",
      access: 'owner',
      description:
        'Totals (valid tickets, capacity, check-ins, KES received, refunded and net), tickets and KES per Nairobi day, check-ins per hour, the figures per ticket ' +
        'type and per promo code. `format=csv` answers the daily sales as a text/csv attachment (Day, Tickets, Revenue (KES)).',
      params: eventParams,
      query: dashboardQuery,
      responses: {
        200: { description: 'JSON: `{eventId, event, currency, totals, salesByDay, checkInsByHour, types, promoCodes}`; `format=csv`: the daily sales as text/csv.', schema: eventDashboard },
        403: 'Not the organiser or an admin.',
        404: 'Event not found (or pending and not yours).',
      },
    },
    async ({ params, query, user, res }) => {
      const dashboard = await deps.dashboard.forEvent(params.id, user);
      if (query.format === 'json') return dashboard;
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="sales-${params.id}.csv"`);
      res.send(toCsv(['Day', 'Tickets', 'Revenue (KES)'], dashboard.salesByDay.map((row) => [row.day, row.tickets, row.revenue])));
    },
  );
  return router;
}
