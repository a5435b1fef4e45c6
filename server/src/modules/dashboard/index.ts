/** The dashboard module's public face (docs/decisions/server-boundaries.md): an event's figures for its organiser. */
export { createEventDashboardRouter } from './dashboard.routes.js';
export { createEventDashboardService, type EventDashboard, type EventDashboardService } from './dashboard.service.js';
