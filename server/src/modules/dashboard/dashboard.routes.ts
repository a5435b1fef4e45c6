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
      team: { permission: 'sales', event: ({ params }) => params.id },
      description:
        'Totals (valid tickets, capacity, check-ins, KES received, refunded and net), tickets and KES per Nairobi day, check-ins per hour, the figures per ticket ' +
        'type and per promo code. `format=csv` answers one table as a text/csv attachment: `table=sales` (the default) the daily sales (Day, Tickets, Revenue (KES)), ' +
        '`table=types` the ticket types (Ticket type, Price (KES), Sold, Capacity, Revenue (KES)), `table=promo-codes` the promo codes (Code, Uses, Discount (KES)).',
      params: eventParams,
      query: dashboardQuery,
      responses: {
        200: { description: 'JSON: `{eventId, event, currency, totals, salesByDay, checkInsByHour, types, promoCodes}`; `format=csv`: the chosen table as text/csv.', schema: eventDashboard },
        403: 'Not the organiser or an admin.',
        404: 'Event not found (or pending and not yours).',
      },
    },
    async ({ params, query, user, res }) => {
      const dashboard = await deps.dashboard.forEvent(params.id, user);
      if (query.format === 'json') return dashboard;
      const tables = {
        sales: () => toCsv(['Day', 'Tickets', 'Revenue (KES)'], dashboard.salesByDay.map((row) => [row.day, row.tickets, row.revenue])),
        types: () => toCsv(['Ticket type', 'Price (KES)', 'Sold', 'Capacity', 'Revenue (KES)'], dashboard.types.map((row) => [row.name, row.price, row.sold, row.capacity, row.revenue])),
        'promo-codes': () => toCsv(['Code', 'Uses', 'Discount (KES)'], dashboard.promoCodes.map((row) => [row.code, row.uses, row.discount])),
      };
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${query.table}-${params.id}.csv"`);
      res.send(tables[query.table]());
    },
  );
  return router;
}
