/*
 * Event series (docs/decisions/event-series.md): which dates a buyer can pick on the event page.
 */
import type { EventDate, EventItem } from '../../../types/api';

/** The dates still on sale: active and not started (wall-clock times compared as UTC, like every event date). */
export function datesOnSale(event: Pick<EventItem, 'dates'>, wallNow: number): EventDate[] {
  return (event.dates ?? []).filter((date) => date.status === 'active' && Date.parse(date.startsAt) >= wallNow);
}
