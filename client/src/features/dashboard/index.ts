/*
 * Dashboard feature: one event's figures for its organiser and admins (/events/:id/dashboard). Its
 * charting library (uPlot) is imported by the chart itself, with import(): nothing here pulls it into
 * another page.
 */
export { EventDashboardPage } from './components/event-dashboard-page';
