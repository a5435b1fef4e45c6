/*
 * Event series (docs/decisions/event-series.md): which dates a buyer can pick on the event page.
 */
import type { EventDate, EventItem } from '../../../types/api';
import type { MyTicket } from '../api/tickets-api';

/** The dates still on sale: active and not started (wall-clock times compared as UTC, like every event date). */
export function datesOnSale(event: Pick<EventItem, 'dates'>, wallNow: number): EventDate[] {
  return (event.dates ?? []).filter((date) => date.status === 'active' && Date.parse(date.startsAt) >= wallNow);
}

/** What a person holds of one series: the dates of their valid tickets, and whether one is a pass for every date. */
export interface HeldDates {
  dateIds: string[];
  pass: boolean;
}

export function heldDates(tickets: Array<Pick<MyTicket, 'voidedAt' | 'seriesDate' | 'allDates'> & { event: { _id: string } }>, eventId: string): HeldDates {
  const mine = tickets.filter((ticket) => ticket.event._id === eventId && !ticket.voidedAt);
  const dateIds = [...new Set(mine.flatMap((ticket) => (ticket.seriesDate ? [ticket.seriesDate._id] : [])))];
  return { dateIds, pass: mine.some((ticket) => ticket.allDates === true) };
}

/**
 * The dates a person registered for a free series can still register for (the server's rule: one registration per
 * person and date): those on sale they hold no ticket for; none once they hold a pass.
 */
export function datesStillOpen(onSale: EventDate[], held: HeldDates): EventDate[] {
  return held.pass ? [] : onSale.filter((date) => !held.dateIds.includes(date._id));
}
