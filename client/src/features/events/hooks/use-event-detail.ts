import { useEffect, useRef } from 'react';
import { useFetch } from '../../../hooks/use-fetch';
import { countEventOpened, getEvent } from '../api/events-api';
import { takeInitialEvent } from '../api/initial-event';

/** Loads one event and counts the visit once per page view (and once more per event opened from it). */
export function useEventDetail(id: string) {
  const state = useFetch(`events:detail:${id}`, (signal) => getEvent(id, signal), () => takeInitialEvent(id));

  const counted = useRef<string | null>(null);
  useEffect(() => {
    if (counted.current === id) return;
    counted.current = id;
    countEventOpened(id).catch(() => undefined);
  }, [id]);

  return state;
}
