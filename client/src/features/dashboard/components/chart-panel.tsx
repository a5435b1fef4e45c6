/*
 * One chart of the dashboard: its heading, the chart (or what shows when there is nothing yet), a text
 * summary as the caption, and the same numbers as a table behind a toggle for anyone who cannot read the canvas.
 */
import type { ReactNode } from 'react';
import { TimeChart, type TimeChartData } from './time-chart';
import '../../../styles/data-table.css';

export interface ChartPanelProps {
  id: string;
  title: string;
  /** Said instead of the chart when there are no rows. */
  emptyText: string;
  chart: TimeChartData;
  /** The chart's accessible name, e.g. 'sales'. */
  label: string;
  height?: number;
  caption: ReactNode;
  tableSummary: string;
  columns: readonly string[];
  /** One row per point: its label (the row header), then its values. */
  rows: ReadonlyArray<{ key: string; label: ReactNode; cells: ReactNode[] }>;
}

export function ChartPanel({ id, title, emptyText, chart, label, height, caption, tableSummary, columns, rows }: ChartPanelProps) {
  return (
    <section className="dashboard__panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p className="empty-state">{emptyText}</p>
      ) : (
        <figure className="dashboard__figure">
          <TimeChart chart={chart} label={label} height={height} />
          <figcaption className="dashboard__caption">{caption}</figcaption>
          <details className="dashboard__table">
            <summary>{tableSummary}</summary>
            <div className="table-scroll">
              <table className="data-table">
                <thead>
                  <tr>
                    {columns.map((column) => (
                      <th key={column} scope="col">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.key}>
                      <th scope="row">{row.label}</th>
                      {row.cells.map((cell, index) => (
                        <td key={index}>{cell}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </figure>
      )}
    </section>
  );
}
