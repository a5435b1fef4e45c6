import { useEffect, useState } from 'react';
import { notify } from '../../../lib/notify';
import { usePagedList, type PagedList } from '../../../hooks/use-paged-list';
import { getErrorMessage } from '../../../lib/errors';
import { deleteEventOutcome, deleteEventQuestion } from '../../../lib/event-deletion';
import { t } from '../../../lib/i18n';
import type { ListedEvent } from '../../../types/api';
import { approveEvent, deleteEvent, disapproveEvent, getAdminEvents, getEvent, type AdminEventFilter } from '../api/admin-api';

export type AdminAction = 'approve' | 'disapprove' | 'delete' | 'save';

/** What each failure says: catalog keys, told in the reader's language. */
export interface AdminMessages {
  load: string;
  approve: string;
  disapprove: string;
  delete: string;
  save: string;
  /** Show the server's own message when it gives one (the scraped-events page does). */
  preferServerMessage: boolean;
}

/** One admin list of events, read a page at a time (GET /api/admin/events), and the filter it holds. */
export type PagedAdminEvents = PagedList<ListedEvent> & { filter: AdminEventFilter };

/** The events `filter` selects, paged; nothing is read until `enabled` (the admin check passed). */
export function useAdminEventList(enabled: boolean, filter: AdminEventFilter): PagedAdminEvents {
  const key = `admin:events:${filter.status ?? ''}:${filter.user ?? ''}:${filter.order ?? ''}:${filter.q ?? ''}`;
  const list = usePagedList(enabled ? key : null, (cursor, signal) => getAdminEvents(filter, cursor, signal));
  return { ...list, filter };
}

/** As the admin cards count it: any status other than approved or cancelled is pending. */
const statusOf = (event: ListedEvent) => (event.status === 'approved' || event.status === 'cancelled' ? event.status : 'pending');

const matches = (filter: AdminEventFilter, event: ListedEvent) =>
  (!filter.status || filter.status === statusOf(event)) && (!filter.user || filter.user === event.user);

/** Whether `a` comes before `b` in the list's order (date, then id, as the server pages them). */
function before(filter: AdminEventFilter, a: ListedEvent, b: ListedEvent): boolean {
  const ascending = a.date === b.date ? a._id < b._id : a.date < b.date;
  return filter.order === 'desc' ? !ascending && a._id !== b._id : ascending;
}

/**
 * Puts a change of one event into a loaded list: replaced where it stays, removed where it no longer
 * belongs, inserted in order where it now belongs (unless it falls after the loaded pages: a later page
 * brings it), each list's count adjusted.
 */
function applyChange(list: PagedAdminEvents, was: ListedEvent, now: ListedEvent | null) {
  const wasIn = matches(list.filter, was);
  const isIn = now !== null && matches(list.filter, now);
  if (!wasIn && !isIn) return;
  list.update(
    (items) => {
      const rest = items.filter((item) => item._id !== was._id);
      if (!isIn || !now) return rest;
      if (wasIn && rest.length < items.length) return items.map((item) => (item._id === was._id ? { ...item, ...now } : item));
      const at = rest.findIndex((item) => before(list.filter, now, item));
      if (at === -1) return list.hasMore ? rest : [...rest, now];
      return [...rest.slice(0, at), now, ...rest.slice(at)];
    },
    wasIn === isIn ? 0 : isIn ? 1 : -1,
  );
}

/**
 * The moderation actions over the page's event lists, each reported with a toast on failure; every
 * change is put into each loaded list it concerns, without reading the lists again.
 */
export function useAdminEvents(lists: PagedAdminEvents[], messages: AdminMessages) {
  const [busy, setBusy] = useState<{ id: string; action: AdminAction } | null>(null);
  const loadError = lists.find((list) => list.error)?.error;

  const fail = (error: unknown, fallbackKey: string) =>
    notify.error(messages.preferServerMessage ? getErrorMessage(error, t(fallbackKey)) : t(fallbackKey));

  useEffect(() => {
    if (loadError) fail(loadError, messages.load);
    // Report each failed load once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadError]);

  const change = (was: ListedEvent, now: ListedEvent | null) => {
    for (const list of lists) applyChange(list, was, now);
  };

  async function run(event: ListedEvent, action: AdminAction, task: () => Promise<void>, failure: string) {
    if (busy) return false;
    setBusy({ id: event._id, action });
    try {
      await task();
      return true;
    } catch (error) {
      fail(error, failure);
      return false;
    } finally {
      setBusy(null);
    }
  }

  return {
    loading: lists.some((list) => list.loading),
    error: loadError,
    reload: () => {
      for (const list of lists) list.reload();
    },
    busy,
    approve: (event: ListedEvent) => run(event, 'approve', async () => change(event, { ...event, ...(await approveEvent(event._id)) }), messages.approve),
    disapprove: (event: ListedEvent) => run(event, 'disapprove', async () => change(event, { ...event, ...(await disapproveEvent(event._id)) }), messages.disapprove),
    /** Deletes, or (the server decides) cancels an event with orders: then it stays listed, cancelled. */
    remove: (event: ListedEvent) => {
      if (!window.confirm(deleteEventQuestion(event))) return Promise.resolve(false);
      return run(
        event,
        'delete',
        async () => {
          const outcome = deleteEventOutcome(await deleteEvent(event._id));
          if (outcome.cancelled) {
            notify.info(outcome.message);
            const cancelled: ListedEvent = { ...event, status: 'cancelled' };
            change(event, cancelled);
            // Then the server's copy (reason, date), in place.
            getEvent(event._id).then((fresh) => change(cancelled, { ...cancelled, ...fresh }), () => undefined);
          } else {
            notify.success(outcome.message);
            change(event, null);
          }
        },
        messages.delete,
      );
    },
    /** For edits: run a save and put the answer in the lists. */
    save: (event: ListedEvent, task: () => Promise<ListedEvent>) => run(event, 'save', async () => change(event, { ...event, ...(await task()) }), messages.save),
  };
}
