import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { countEventOpened, getEvent, type EventItem } from '../api/events-api';
import { takeInitialEvent } from '../api/initial-event';

/**
 * Loads one event and counts the visit once per page view (and once more per event opened from it). The event
 * the server put into the page (/events/:id) is shown without asking again.
 */
export function useEventDetail(id: string) {
  const queryClient = useQueryClient();
  // Served once: the page opened later in the tab (even this one again) is asked for.
  const [embedded] = useState(() => ({ id, event: takeInitialEvent(id) }));
  const initial = embedded.id === id ? embedded.event : undefined;
  const query = useQuery({
    queryKey: ['events', 'detail', id],
    queryFn: ({ signal }) => getEvent(id, signal),
    initialData: initial,
    refetchOnMount: initial === undefined,
  });

  const counted = useRef<string | null>(null);
  useEffect(() => {
    if (counted.current === id) return;
    counted.current = id;
    countEventOpened(id).catch(() => undefined);
  }, [id]);

  return {
    data: query.data,
    error: query.error,
    loading: query.isLoading,
    reload: () => void query.refetch(),
    /** Changes the shown event after a mutation answered. */
    setData: (update: (current: EventItem) => EventItem) =>
      queryClient.setQueryData<EventItem>(['events', 'detail', id], (current) => (current ? update(current) : current)),
  };
}
