import type { Executor } from '../../db/database.js';
import { nowAsWallClock } from '../../lib/event-clock.js';
import { createEventSeriesRepository, type EventDateRow } from './event-series.repository.js';

/*
 * Event series as other modules need them (docs/decisions/event-series.md): the checkout module adds, moves and
 * cancels dates under the event row lock it takes for every stock change, and reads them for the hold and the
 * per-date seat counts. Each takes an Executor (the database or the caller's transaction).
 */

export type { EventDateRow };

/** A date as the API shows it (wall-clock times as ISO, like an event's `date`). */
export interface EventDateDto {
  _id: string;
  startsAt: string;
  endsAt: string | null;
  capacity: number | null;
  status: 'active' | 'cancelled';
}

export function toEventDateDto(row: Pick<EventDateRow, 'id' | 'startsAt' | 'endsAt' | 'capacity' | 'status'>): EventDateDto {
  return { _id: row.id, startsAt: row.startsAt.toISOString(), endsAt: row.endsAt?.toISOString() ?? null, capacity: row.capacity, status: row.status };
}

/** The series' next date: the earliest active one not started yet (null when none is left). */
export function nextEventDate<T extends { startsAt: string; status: string }>(dates: T[], wallNow = nowAsWallClock()): T | null {
  return dates.find((date) => date.status === 'active' && Date.parse(date.startsAt) >= wallNow.getTime()) ?? null;
}

/** The event_dates rows of one event and the writes the checkout's date handlers make. */
export function eventSeries(executor: Executor) {
  return createEventSeriesRepository(executor);
}
