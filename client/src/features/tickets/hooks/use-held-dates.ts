/*
 * The dates of a free event series (docs/decisions/event-series.md) the signed-in person already holds a ticket
 * for: the ticket box lists them and offers the other dates (one registration per person and date).
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { getMyTickets } from '../api/tickets-api';
import { heldDates, type HeldDates } from '../lib/series-dates';

export function useHeldDates(eventId: string, userId: string | null, enabled: boolean): { held: HeldDates; loading: boolean; markHeld: (dateId: string) => void } {
  const query = useQuery({
    queryKey: ['tickets', 'mine', userId, 'held-dates', eventId],
    queryFn: ({ signal }) => getMyTickets(signal),
    enabled: enabled && Boolean(userId),
    select: (tickets) => heldDates(tickets, eventId),
  });
  // A registration made on this page counts at once, before any new read.
  const [added, setAdded] = useState<string[]>([]);
  const markHeld = useCallback((dateId: string) => setAdded((current) => (current.includes(dateId) ? current : [...current, dateId])), []);
  const fromServer = query.data ?? { dateIds: [], pass: false };
  return { held: { ...fromServer, dateIds: [...new Set([...fromServer.dateIds, ...added])] }, loading: enabled && Boolean(userId) && query.isPending, markHeld };
}
