/*
 * /events/:id/dashboard: one event's figures for its organiser (or an admin), from GET /api/events/:id/dashboard.
 * Totals as cards, sales per day and check-ins per hour as charts (each with a text summary and the
 * numbers as a table), figures per ticket type (and per promo code, once there are any), and each table
 * as a CSV file. The server decides who may see it; this page shows its refusal as it comes.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { PageLoader } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../hooks/use-document-title';
import { getErrorMessage, getErrorStatus, getServerMessage } from '../../../lib/errors';
import { formatCount, formatEventDate, formatEventTime, formatShillings } from '../../../lib/format';
import { t as translate, useT } from '../../../lib/i18n';
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
  salesSummary,
} from '../lib/chart-data';
import { saveFile } from '../../../lib/save-file';
import { fileSlug } from '../lib/file-slug';
import { ChartPanel } from './chart-panel';
import type { TimeChartData } from './time-chart';
import '../../../styles/data-table.css';
import '../dashboard.css';

/** Canvas colours: the palette's green, red and blue (global.css), which canvas cannot read from CSS. */
const GREEN = '#0a7d3e';
const RED = '#c8102e';
const BLUE = '#1a56db';


export function EventDashboardPage({ eventId }: { eventId: string }) {
  const t = useT();
  const dashboard = useQuery({ queryKey: ['event-dashboard', eventId], queryFn: ({ signal }) => getEventDashboard(eventId, signal) });
  const data = dashboard.data;
  useDocumentTitle(data ? t('dashboard.documentTitle', { title: data.event.title }) : t('dashboard.eventDashboard'));

  if (!data) {
    if (dashboard.isLoading) return <PageLoader label={t('dashboard.loading')} />;
    const status = getErrorStatus(dashboard.error);
    return (
      <section className="page page--narrow status-page">
        <h1>{t(status === 404 ? 'dashboard.eventNotFound' : status === 403 ? 'dashboard.notYourEvent' : 'dashboard.couldNotLoad')}</h1>
        <p className="form-message form-message--error" role="alert">
          {getServerMessage(dashboard.error) ?? t('dashboard.loadFailed')}
        </p>
        <div className="status-page__actions">
          {status === 403 || status === 404 ? null : <Button onClick={() => void dashboard.refetch()}>{t('dashboard.tryAgain')}</Button>}
          <Link className="btn btn--secondary" to={status === 404 ? paths.profile : paths.event(eventId)}>
            {t(status === 404 ? 'dashboard.myProfile' : 'dashboard.backToEvent')}
          </Link>
        </div>
      </section>
    );
  }
  return <DashboardBody data={data} />;
}

function DashboardBody({ data }: { data: EventDashboard }) {
  const t = useT();
  const { event, totals } = data;
  const isPaid = event.isPaid && event.ticketPrice > 0;
  const [exporting, setExporting] = useState<DashboardTable | null>(null);

  const sales = useMemo<TimeChartData>(
    () => ({
      xs: data.salesByDay.map((row) => labelSeconds(row.day)),
      step: DAY_SECONDS,
      formatX: formatDay,
      series: [
        { label: t('dashboard.tickets'), values: data.salesByDay.map((row) => row.tickets), color: GREEN, kind: 'bars', scale: 'count', format: formatCount },
        ...(isPaid
          ? [{ label: t('dashboard.revenue'), values: data.salesByDay.map((row) => row.revenue), color: RED, kind: 'line' as const, scale: 'kes', format: formatShillings, axisFormat: compactShillings }]
          : []),
      ],
    }),
    [data.salesByDay, isPaid, t],
  );
  const checkIns = useMemo<TimeChartData>(
    () => ({
      xs: data.checkInsByHour.map((row) => labelSeconds(row.hour)),
      step: HOUR_SECONDS,
      // A new day's first tick says which day.
      formatX: (seconds) => (seconds % DAY_SECONDS === 0 ? formatDay(seconds) : formatHour(seconds)),
      series: [{ label: t('dashboard.checkIns'), values: data.checkInsByHour.map((row) => row.checkedIn), color: BLUE, kind: 'bars', scale: 'count', format: formatCount }],
    }),
    [data.checkInsByHour, t],
  );

  const exportCsv = async (table: DashboardTable) => {
    setExporting(table);
    try {
      saveFile(await getDashboardCsv(data.eventId, table), `${table}-${fileSlug(event.title)}.csv`);
    } catch (error) {
      notify.error(getErrorMessage(error, translate('dashboard.exportFailed')));
    } finally {
      setExporting(null);
    }
  };
  const exportButton = (table: DashboardTable, name: string) => (
    <Button variant="secondary" className="btn--sm" loading={exporting === table} loadingText={t('dashboard.exporting')} onClick={() => void exportCsv(table)}>
      {t('dashboard.exportTable')}
      <span className="visually-hidden"> {t('dashboard.exportTableOf', { name })}</span>
    </Button>
  );
  /** '3 / 40'. One type is the whole event, so the event's capacity is its limit; among several, only a type's own. */
  const soldOf = (type: { sold: number; capacity: number | null }) => {
    const capacity = type.capacity ?? (data.types.length === 1 ? totals.capacity : null);
    return capacity === null ? formatCount(type.sold) : `${formatCount(type.sold)} / ${formatCount(capacity)}`;
  };

  // Instalment reservations (docs/decisions/instalments.md) get a column once there are any: most events never have one.
  const showReserved = data.types.some((type) => (type.reserved ?? 0) > 0);
  const soldShare = percent(totals.ticketsSold, totals.capacity);
  const checkedInShare = percent(totals.checkedIn, totals.ticketsSold);

  return (
    <div className="page dashboard">
      <p className="dashboard__back">
        <Link to={paths.event(data.eventId)}>{t('dashboard.backToEventArrow')}</Link>
      </p>
      <header className="dashboard__header">
        <div>
          <p className="eyebrow">{t('dashboard.organiserDashboard')}</p>
          <h1 className="dashboard__title">{event.title}</h1>
          <p className="muted">
            {formatEventDate(event.date)} · {formatEventTime(event.date)}
            {event.status === 'cancelled' ? ` · ${t('dashboard.cancelled')}` : event.status === 'pending' ? ` · ${t('dashboard.pendingApproval')}` : null}
          </p>
        </div>
        <Button variant="secondary" loading={exporting === 'sales'} loadingText={t('dashboard.exporting')} onClick={() => void exportCsv('sales')}>
          {t('dashboard.exportCsv')}
        </Button>
      </header>

      <section aria-labelledby="dashboard-totals">
        <h2 id="dashboard-totals" className="visually-hidden">
          {t('dashboard.totals')}
        </h2>
        <dl className="dashboard__cards">
          <div className="dashboard-card">
            <dt>{t('dashboard.ticketsSold')}</dt>
            <dd className="dashboard-card__value">{formatCount(totals.ticketsSold)}</dd>
            <dd className="dashboard-card__detail">
              {totals.capacity === null ? t('dashboard.noSeatLimit') : t('dashboard.ofSeats', { count: totals.capacity, share: soldShare })}
            </dd>
            {totals.capacity === null ? null : (
              <dd className="dashboard-card__bar" aria-hidden="true">
                <span style={{ width: `${Math.min(100, (totals.ticketsSold / Math.max(1, totals.capacity)) * 100)}%` }} />
              </dd>
            )}
          </div>
          {isPaid || totals.grossRevenue > 0 ? (
            <div className="dashboard-card">
              <dt>{t('dashboard.revenue')}</dt>
              <dd className="dashboard-card__value">{formatShillings(totals.revenue)}</dd>
              <dd className="dashboard-card__detail">
                {t('dashboard.receivedRefunded', { received: formatShillings(totals.grossRevenue), refunded: formatShillings(totals.refunded.amount) })}
              </dd>
            </div>
          ) : null}
          <div className="dashboard-card">
            <dt>{t('dashboard.checkedIn')}</dt>
            <dd className="dashboard-card__value">{formatCount(totals.checkedIn)}</dd>
            <dd className="dashboard-card__detail">{checkedInShare ? t('dashboard.ofTickets', { count: totals.ticketsSold, share: checkedInShare }) : t('dashboard.noTicketsYet')}</dd>
          </div>
          {totals.refundsPending.count > 0 ? (
            <div className="dashboard-card">
              <dt>{t('dashboard.refundsOnTheirWay')}</dt>
              <dd className="dashboard-card__value">{formatShillings(totals.refundsPending.amount)}</dd>
              <dd className="dashboard-card__detail">{t('dashboard.refundsUnconfirmed', { count: totals.refundsPending.count })}</dd>
            </div>
          ) : null}
        </dl>
      </section>

      <ChartPanel
        id="dashboard-sales"
        title={t('dashboard.salesOverTime')}
        emptyText={t('dashboard.noSalesYetLong')}
        chart={sales}
        label="sales"
        caption={`${salesSummary(data.salesByDay, isPaid)} ${t('dashboard.nairobiDays')}`}
        tableSummary={t('dashboard.salesTable')}
        columns={isPaid ? [t('dashboard.day'), t('dashboard.tickets'), t('dashboard.revenue')] : [t('dashboard.day'), t('dashboard.tickets')]}
        rows={data.salesByDay.map((row) => ({
          key: row.day,
          label: formatDay(labelSeconds(row.day)),
          cells: isPaid ? [formatCount(row.tickets), formatShillings(row.revenue)] : [formatCount(row.tickets)],
        }))}
      />

      <ChartPanel
        id="dashboard-checkins"
        title={t('dashboard.checkIns')}
        emptyText={t('dashboard.noCheckInsLong')}
        chart={checkIns}
        label="check-ins"
        height={200}
        caption={checkInSummary(data.checkInsByHour)}
        tableSummary={t('dashboard.checkInsTable')}
        columns={[t('dashboard.hour'), t('dashboard.checkIns')]}
        rows={data.checkInsByHour.map((row) => ({ key: row.hour, label: formatDayHour(labelSeconds(row.hour)), cells: [formatCount(row.checkedIn)] }))}
      />

      <section className="dashboard__panel" aria-labelledby="dashboard-types">
        <div className="dashboard__panel-header">
          <h2 id="dashboard-types">{t('dashboard.ticketTypes')}</h2>
          {exportButton('types', t('dashboard.ticketTypesName'))}
        </div>
        {/* Scrolls sideways on a phone: focusable, so a keyboard can scroll it too. */}
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="dashboard-types">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('dashboard.type')}</th>
                <th scope="col">{t('dashboard.price')}</th>
                <th scope="col">{t('dashboard.sold')}</th>
                {showReserved ? <th scope="col">{t('dashboard.reserved')}</th> : null}
                <th scope="col">{t('dashboard.revenue')}</th>
              </tr>
            </thead>
            <tbody>
              {data.types.map((type) => (
                <tr key={type.name}>
                  <th scope="row">{type.name}</th>
                  <td>{type.price > 0 ? formatShillings(type.price) : t('dashboard.free')}</td>
                  <td>{soldOf(type)}</td>
                  {showReserved ? (
                    <td data-testid="dashboard-reserved">{type.reserved ? t('dashboard.reservedFigure', { seats: formatCount(type.reserved), paid: formatShillings(type.reservedPaid ?? 0) }) : formatCount(0)}</td>
                  ) : null}
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
            <h2 id="dashboard-promo">{t('dashboard.promoCodes')}</h2>
            {exportButton('promo-codes', t('dashboard.promoCodesName'))}
          </div>
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="dashboard-promo">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('dashboard.code')}</th>
                  <th scope="col">{t('dashboard.uses')}</th>
                  <th scope="col">{t('dashboard.discountGiven')}</th>
                </tr>
              </thead>
              <tbody>
                {data.promoCodes.map((promo) => (
                  <tr key={promo.code}>
                    <th scope="row" className="mono">
                      {promo.code}
                    </th>
                    <td>{formatCount(promo.uses)}</td>
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
