import { useEffect, useState } from 'react';
import { notify } from '../../../lib/notify';
import { useFetch } from '../../../hooks/use-fetch';
import { getErrorMessage } from '../../../lib/errors';
import { deleteEventOutcome, deleteEventQuestion } from '../../../lib/event-deletion';
import { t } from '../../../lib/i18n';
import type { EventItem } from '../../../types/api';
import { approveEvent, deleteEvent, disapproveEvent, getAllEvents } from '../api/admin-api';

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

/** All events for an admin plus the moderation actions, each reported with a toast on failure. */
export function useAdminEvents(enabled: boolean, messages: AdminMessages) {
  const list = useFetch(enabled ? 'admin:events' : null, getAllEvents);
  const [busy, setBusy] = useState<{ id: string; action: AdminAction } | null>(null);

  const fail = (error: unknown, fallbackKey: string) =>
    notify.error(messages.preferServerMessage ? getErrorMessage(error, t(fallbackKey)) : t(fallbackKey));

  useEffect(() => {
    if (list.error) fail(list.error, messages.load);
    // Report each failed load once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.error]);

  const replace = (updated: EventItem) =>
    list.setData((events) => events?.map((event) => (event._id === updated._id ? { ...event, ...updated } : event)));

  async function run(id: string, action: AdminAction, task: () => Promise<void>, failure: string) {
    if (busy) return false;
    setBusy({ id, action });
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
    events: list.data,
    loading: list.loading,
    error: list.error,
    reload: list.reload,
    busy,
    approve: (id: string) => run(id, 'approve', async () => replace(await approveEvent(id)), messages.approve),
    disapprove: (id: string) => run(id, 'disapprove', async () => replace(await disapproveEvent(id)), messages.disapprove),
    /** Deletes, or (the server decides) cancels an event with orders: then it stays listed, cancelled. */
    remove: (event: EventItem) => {
      if (!window.confirm(deleteEventQuestion(event))) return Promise.resolve(false);
      return run(
        event._id,
        'delete',
        async () => {
          const outcome = deleteEventOutcome(await deleteEvent(event._id));
          if (outcome.cancelled) {
            notify.info(outcome.message);
            replace({ ...event, status: 'cancelled' });
            // Then the server's copy (reason, date), without putting the page back into its loading state.
            getAllEvents().then((events) => list.setData(() => events), () => undefined);
          } else {
            notify.success(outcome.message);
            list.setData((events) => events?.filter((item) => item._id !== event._id));
          }
        },
        messages.delete,
      );
    },
    /** For edits: run a save and put the answer in the list. */
    save: (id: string, task: () => Promise<EventItem>) => run(id, 'save', async () => replace(await task()), messages.save),
  };
}
