/*
 * /events/:id/dashboard: one event's figures for its organiser (or an admin), from GET /api/events/:id/dashboard.
 * Totals as cards, sales per day and check-ins per hour as charts (each with a text summary and the
 * numbers as a table), figures per ticket type (and per promo code, once there are any), and each table
 * as a CSV file. The server decides who may see it; this page shows its refusal as it comes.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { PageLoader } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { useFetch } from '../../../hooks/use-fetch';
import { getErrorMessage, getErrorStatus, getServerMessage } from '../../../lib/errors';
import { formatEventDate, formatEventTime, formatShillings } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { getDashboardCsv, getEventDashboard, type DashboardTable, type EventDashboard } from '../api/dashboard-api';
import {
  checkInSummary,
  compactShillings,
  DAY_SECONDS,
  formatDay,
  formatDayHour,
  formatHour,
  HOUR_SECONDS,
  labelSeconds,
  percent,
  plural,
  salesSummary,
} from '../lib/chart-data';
import { saveFile } from '../../../lib/save-file';
import { fileSlug } from '../lib/file-slug';
import { ChartPanel } from './chart-panel';
import type { TimeChartData } from './time-chart';
import '../dashboard.css';

/** Canvas colours: the palette's green, red and blue (global.css), which canvas cannot read from CSS. */
const GREEN = '#0a7d3e';
const RED = '#c8102e';
const BLUE = '#1a56db';

const count = (value: number) => value.toLocaleString('en-US');

export function EventDashboardPage({ eventId }: { eventId: string }) {
  const dashboard = useFetch(`event-dashboard:${eventId}`, (signal) => getEventDashboard(eventId, signal));
  const data = dashboard.data;
  useDocumentTitle(data ? `Dashboard · ${data.event.title}` : 'Event dashboard');

  if (!data) {
    if (dashboard.loading) return <PageLoader label="Loading the dashboard…" />;
    const status = getErrorStatus(dashboard.error);
    return (
      <section className="page page--narrow status-page">
        <h1>{status === 404 ? 'Event not found' : status === 403 ? 'Not your event' : 'Could not load the dashboard'}</h1>
        <p className="form-message form-message--error" role="alert">
          {getServerMessage(dashboard.error) ?? 'Failed to load the dashboard. Please try again.'}
        </p>
        <div className="status-page__actions">
          {status === 403 || status === 404 ? null : <Button onClick={dashboard.reload}>Try again</Button>}
          <Link className="btn btn--secondary" to={status === 404 ? paths.profile : paths.event(eventId)}>
            {status === 404 ? 'My profile' : 'Back to the event'}
          </Link>
        </div>
      </section>
    );
  }
  return <DashboardBody data={data} />;
}

function DashboardBody({ data }: { data: EventDashboard }) {
  const { event, totals } = data;
  const isPaid = event.isPaid && event.ticketPrice > 0;
  const [exporting, setExporting] = useState<DashboardTable | null>(null);

  const sales = useMemo<TimeChartData>(
    () => ({
      xs: data.salesByDay.map((row) => labelSeconds(row.day)),
      step: DAY_SECONDS,
      formatX: formatDay,
      series: [
        { label: 'Tickets', values: data.salesByDay.map((row) => row.tickets), color: GREEN, kind: 'bars', scale: 'count', format: count },
        ...(isPaid
          ? [{ label: 'Revenue', values: data.salesByDay.map((row) => row.revenue), color: RED, kind: 'line' as const, scale: 'kes', format: formatShillings, axisFormat: compactShillings }]
          : []),
      ],
    }),
    [data.salesByDay, isPaid],
  );
  const checkIns = useMemo<TimeChartData>(
    () => ({
      xs: data.checkInsByHour.map((row) => labelSeconds(row.hour)),
      step: HOUR_SECONDS,
      // A new day's first tick says which day.
      formatX: (seconds) => (seconds % DAY_SECONDS === 0 ? formatDay(seconds) : formatHour(seconds)),
      series: [{ label: 'Check-ins', values: data.checkInsByHour.map((row) => row.checkedIn), color: BLUE, kind: 'bars', scale: 'count', format: count }],
    }),
    [data.checkInsByHour],
  );

  const exportCsv = async (table: DashboardTable) => {
    setExporting(table);
    try {
      saveFile(await getDashboardCsv(data.eventId, table), `${table}-${fileSlug(event.title)}.csv`);
    } catch (error) {
      notify.error(getErrorMessage(error, 'Could not export the table. Please try again.'));
    } finally {
      setExporting(null);
    }
  };
  const exportButton = (table: DashboardTable, name: string) => (
    <Button variant="secondary" className="btn--sm" loading={exporting === table} loadingText="Exporting…" onClick={() => void exportCsv(table)}>
      Export table<span className="visually-hidden"> of {name} as CSV</span>
    </Button>
  );
  /** '3 / 40'. One type is the whole event, so the event's capacity is its limit; among several, only a type's own. */
  const soldOf = (type: { sold: number; capacity: number | null }) => {
    const capacity = type.capacity ?? (data.types.length === 1 ? totals.capacity : null);
    return capacity === null ? count(type.sold) : `${count(type.sold)} / ${count(capacity)}`;
  };

  const soldShare = percent(totals.ticketsSold, totals.capacity);
  const checkedInShare = percent(totals.checkedIn, totals.ticketsSold);

  return (
    <div className="page dashboard">
      <p className="dashboard__back">
        <Link to={paths.event(data.eventId)}>← Back to the event</Link>
      </p>
      <header className="dashboard__header">
        <div>
          <p className="eyebrow">Organiser dashboard</p>
          <h1 className="dashboard__title">{event.title}</h1>
          <p className="muted">
            {formatEventDate(event.date)} · {formatEventTime(event.date)}
            {event.status === 'cancelled' ? ' · Cancelled' : event.status === 'pending' ? ' · Pending approval' : null}
          </p>
        </div>
        <Button variant="secondary" loading={exporting === 'sales'} loadingText="Exporting…" onClick={() => void exportCsv('sales')}>
          Export CSV
        </Button>
      </header>

      <section aria-labelledby="dashboard-totals">
        <h2 id="dashboard-totals" className="visually-hidden">
          Totals
        </h2>
        <dl className="dashboard__cards">
          <div className="dashboard-card">
            <dt>Tickets sold</dt>
            <dd className="dashboard-card__value">{count(totals.ticketsSold)}</dd>
            <dd className="dashboard-card__detail">
              {totals.capacity === null ? 'No seat limit' : `of ${plural(totals.capacity, 'seat', 'seats')} · ${soldShare}`}
            </dd>
            {totals.capacity === null ? null : (
              <dd className="dashboard-card__bar" aria-hidden="true">
                <span style={{ width: `${Math.min(100, (totals.ticketsSold / Math.max(1, totals.capacity)) * 100)}%` }} />
              </dd>
            )}
          </div>
          {isPaid || totals.grossRevenue > 0 ? (
            <div className="dashboard-card">
              <dt>Revenue</dt>
              <dd className="dashboard-card__value">{formatShillings(totals.revenue)}</dd>
              <dd className="dashboard-card__detail">
                {formatShillings(totals.grossRevenue)} received · {formatShillings(totals.refunded.amount)} refunded
              </dd>
            </div>
          ) : null}
          <div className="dashboard-card">
            <dt>Checked in</dt>
            <dd className="dashboard-card__value">{count(totals.checkedIn)}</dd>
            <dd className="dashboard-card__detail">{checkedInShare ? `of ${plural(totals.ticketsSold, 'ticket', 'tickets')} · ${checkedInShare}` : 'No tickets yet'}</dd>
          </div>
          {totals.refundsPending.count > 0 ? (
            <div className="dashboard-card">
              <dt>Refunds on their way</dt>
              <dd className="dashboard-card__value">{formatShillings(totals.refundsPending.amount)}</dd>
              <dd className="dashboard-card__detail">{plural(totals.refundsPending.count, 'refund', 'refunds')} not yet confirmed by M-Pesa</dd>
            </div>
          ) : null}
        </dl>
      </section>

      <ChartPanel
        id="dashboard-sales"
        title="Sales over time"
        emptyText="No tickets sold yet. Sales will show here day by day."
        chart={sales}
        label="sales"
        caption={`${salesSummary(data.salesByDay, isPaid)} Days are Nairobi days.`}
        tableSummary="Sales by day as a table"
        columns={isPaid ? ['Day', 'Tickets', 'Revenue'] : ['Day', 'Tickets']}
        rows={data.salesByDay.map((row) => ({
          key: row.day,
          label: formatDay(labelSeconds(row.day)),
          cells: isPaid ? [count(row.tickets), formatShillings(row.revenue)] : [count(row.tickets)],
        }))}
      />

      <ChartPanel
        id="dashboard-checkins"
        title="Check-ins"
        emptyText="No check-ins yet. Scans at the door will show here hour by hour."
        chart={checkIns}
        label="check-ins"
        height={200}
        caption={checkInSummary(data.checkInsByHour)}
        tableSummary="Check-ins by hour as a table"
        columns={['Hour', 'Check-ins']}
        rows={data.checkInsByHour.map((row) => ({ key: row.hour, label: formatDayHour(labelSeconds(row.hour)), cells: [count(row.checkedIn)] }))}
      />

      <section className="dashboard__panel" aria-labelledby="dashboard-types">
        <div className="dashboard__panel-header">
          <h2 id="dashboard-types">Ticket types</h2>
          {exportButton('types', 'ticket types')}
        </div>
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Price</th>
                <th scope="col">Sold</th>
                <th scope="col">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {data.types.map((type) => (
                <tr key={type.name}>
                  <th scope="row">{type.name}</th>
                  <td>{type.price > 0 ? formatShillings(type.price) : 'Free'}</td>
                  <td>{soldOf(type)}</td>
                  <td>{formatShillings(type.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      {data.promoCodes.length > 0 ? (
        <section className="dashboard__panel" aria-labelledby="dashboard-promo">
          <div className="dashboard__panel-header">
            <h2 id="dashboard-promo">Promo codes</h2>
            {exportButton('promo-codes', 'promo codes')}
          </div>
          <div className="table-scroll">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Uses</th>
                  <th scope="col">Discount given</th>
                </tr>
              </thead>
              <tbody>
                {data.promoCodes.map((promo) => (
                  <tr key={promo.code}>
                    <th scope="row" className="mono">
                      {promo.code}
                    </th>
                    <td>{count(promo.uses)}</td>
                    <td>{formatShillings(promo.discount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </div>
  );
}
