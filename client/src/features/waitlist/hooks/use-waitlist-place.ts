import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { getMyPlace, type WaitlistPlace } from '../api/waitlist-api';

/** How often an open place is read again, so an offer (or its end) shows without a reload. */
export const WAITLIST_RECHECK_MS = 30_000;

export interface WaitlistPlaceOptions {
  eventId: string | undefined;
  /** The signed-in person (null: a visitor, nothing to read). */
  userId: string | null;
  /** The event could have a waitlist now: a seat limit, upcoming, not cancelled. */
  enabled: boolean;
  /** Read again when this changes (e.g. after the person registered or bought: the place is then accepted). */
  version?: string;
}

/** The person's place as read, a way to read it again, and one to show a place a call answered. */
export interface WaitlistPlaceState {
  data: WaitlistPlace | undefined;
  error: unknown;
  reload: () => void;
  setPlace: (place: WaitlistPlace) => void;
}

/**
 * The signed-in person's place on the event's waitlist and the seats they can buy now. While the place is
 * open (waiting, or an offer held) it is read again every 30 s, and once more just after an offer's time runs
 * out, so the page follows the server's sweep without a reload.
 */
export function useWaitlistPlace({ eventId, userId, enabled, version = '' }: WaitlistPlaceOptions): WaitlistPlaceState {
  const queryClient = useQueryClient();
  const queryKey = ['waitlist', eventId, userId, version];
  const active = Boolean(enabled && eventId && userId);
  const query = useQuery({ queryKey, queryFn: ({ signal }) => getMyPlace(eventId ?? '', signal), enabled: active });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  const status = query.data?.entry?.status;
  const expiresAt = query.data?.entry?.offerExpiresAt ?? null;
  const open = active && (status === 'waiting' || status === 'offered');

  useEffect(() => {
    if (!open) return;
    const timer = window.setInterval(() => {
      // A hidden tab need not ask; it asks again within 30 s of coming back.
      if (document.visibilityState !== 'hidden') reload();
    }, WAITLIST_RECHECK_MS);
    return () => window.clearInterval(timer);
  }, [open, reload]);

  useEffect(() => {
    if (!open || status !== 'offered' || !expiresAt) return;
    // A little after the end: the server passes the offer on when it next looks (its sweep).
    const wait = new Date(expiresAt).getTime() - Date.now() + 2_000;
    if (!Number.isFinite(wait) || wait <= 0 || wait > WAITLIST_RECHECK_MS) return;
    const timer = window.setTimeout(reload, wait);
    return () => window.clearTimeout(timer);
  }, [open, status, expiresAt, reload]);

  return { data: query.data, error: query.error, reload, setPlace: (place) => queryClient.setQueryData(queryKey, place) };
}
