/*
 * One chart over time, drawn by uPlot on a canvas. uPlot is imported here and nowhere else, and only with
 * import(): its code downloads when a dashboard draws its first chart, never with another page (the
 * dashboard route is itself lazy). The canvas is decoration for sighted readers: the figure's caption says
 * what it shows, and the same numbers are in a table below it (see EventDashboardPage).
 */
import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useT } from '../../../lib/i18n';
import { DAY_SECONDS } from '../lib/chart-data';

export interface ChartSeries {
  label: string;
  values: number[];
  /** Any canvas colour. */
  color: string;
  kind: 'bars' | 'line';
  /** Series on the same axis share a scale; the second scale gets the right-hand axis. */
  scale: string;
  /** A value on its axis. */
  format: (value: number) => string;
  /** Shorter axis labels (defaults to format). */
  axisFormat?: (value: number) => string;
}

export interface TimeChartData {
  /** Seconds (wall-clock time read as UTC), evenly `step` apart. */
  xs: number[];
  step: number;
  /** Tick labels on the time axis. */
  formatX: (seconds: number) => string;
  series: ChartSeries[];
}

const loadUPlot = () => import('uplot').then((module) => module.default);

/** Tick steps of the time axis: whole hours or days, so a label never falls between two of them. */
const HOUR_INCRS = [1, 2, 3, 6, 12, 24, 48].map((hours) => hours * 3600);
const DAY_INCRS = [1, 2, 7, 14, 28, 56, 112, 224, 365].map((days) => days * DAY_SECONDS);
/** Counts are whole: ticks at 1, 2, 5, 10… */
const COUNT_INCRS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000];

function options(UPlot: typeof uPlot, chart: TimeChartData, width: number, height: number, onDraw: () => void): uPlot.Options {
  const scales = [...new Set(chart.series.map((series) => series.scale))];
  const bars = UPlot.paths.bars?.({ size: [0.7, 48] });
  const pad = chart.step * 0.6;
  return {
    width,
    height,
    // The labels are Nairobi wall-clock time written as UTC: show them as they are, in any viewer's zone.
    tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    cursor: { drag: { x: false, y: false } },
    // A key only: the numbers are in the caption and the table (a live legend would read '—' until hovered).
    legend: { live: false },
    scales: {
      // Half a step of room on each side, so the first and last bars are whole. From the data, not from
      // uPlot's min and max: with a single point uPlot widens the range by a thousand days first.
      x: { time: true, range: (): uPlot.Range.MinMax => [(chart.xs[0] ?? 0) - pad, (chart.xs[chart.xs.length - 1] ?? 0) + pad] },
      ...Object.fromEntries(scales.map((scale) => [scale, { range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, Math.max(1, Math.ceil(max * 1.15))] }])),
    },
    axes: [
      {
        incrs: chart.step >= DAY_SECONDS ? DAY_INCRS : HOUR_INCRS,
        values: (_u, splits) => splits.map((seconds) => chart.formatX(seconds)),
        grid: { show: false },
      },
      ...scales.map((scale, index): uPlot.Axis => {
        const series = chart.series.find((item) => item.scale === scale)!;
        const format = series.axisFormat ?? series.format;
        return {
          scale,
          side: index === 0 ? 3 : 1,
          size: 64,
          incrs: scale === 'count' ? COUNT_INCRS : undefined,
          values: (_u, splits) => splits.map((value) => format(value)),
          grid: { show: index === 0, stroke: '#e4e6e9' },
        };
      }),
    ],
    series: [
      {},
      ...chart.series.map(
        (series): uPlot.Series => ({
          label: series.label,
          scale: series.scale,
          stroke: series.color,
          width: series.kind === 'line' ? 2 : 1,
          fill: series.kind === 'bars' ? series.color : undefined,
          paths: series.kind === 'bars' ? bars : undefined,
          points: { show: series.kind === 'line' && chart.xs.length <= 31 },
        }),
      ),
    ],
    hooks: { draw: [onDraw] },
  };
}

export function TimeChart({ chart, height = 240, label }: { chart: TimeChartData; height?: number; label: string }) {
  const t = useT();
  const hostRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'failed'>('loading');

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    loadUPlot().then(
      (UPlot) => {
        if (cancelled) return;
        const data: uPlot.AlignedData = [chart.xs, ...chart.series.map((series) => series.values)];
        plot = new UPlot(options(UPlot, chart, host.clientWidth, height, () => setState('drawn')), data, host);
        // The chart follows its column's width (phone rotation, a resized window).
        observer = new ResizeObserver(() => {
          if (plot && host.clientWidth > 0 && host.clientWidth !== plot.width) plot.setSize({ width: host.clientWidth, height });
        });
        observer.observe(host);
      },
      () => {
        if (!cancelled) setState('failed');
      },
    );
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [chart, height]);

  return (
    <div className="time-chart" data-chart={label} data-state={state}>
      {/* Hidden from assistive technology: the caption and the table say the same. */}
      <div ref={hostRef} className="time-chart__canvas" aria-hidden="true" />
      {state === 'loading' ? (
        <p className="muted time-chart__note" role="status">
          {t('dashboard.drawing')}
        </p>
      ) : null}
      {state === 'failed' ? <p className="muted time-chart__note">{t('dashboard.drawFailed')}</p> : null}
    </div>
  );
}
