/*
 * /admin › Account deletions (docs/decisions/data-rights.md, "Deleting an account"): for a person who asked in
 * writing (a letter, an email to support). The admin finds the account by username or email and deletes it with a reason
 * naming the request (kept in the log); the account closes at once and is erased after the grace period, and the
 * person is emailed an undo link. Below, the deletions administrators scheduled, each with Undo until its date.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextAreaField } from '../../../components/ui/form-field';
import { SearchField } from '../../../components/ui/search-field';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { usePrivacySettings } from '../../../hooks/use-privacy-settings';
import { getErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useConfirmedAction } from '../../../hooks/use-confirmed-action';
import { findAccounts, getAdminDeletions, scheduleAccountDeletion, undoAccountDeletionAsAdmin } from '../api/account-deletions-api';

/** The server asks for 10+ characters: enough for the written request's reference. */
const REASON_MIN = 10;
const LOG_KEY = ['admin:account-deletions'];

export function AccountDeletionsSection() {
  const t = useT();
  const headingId = useId();
  const queryClient = useQueryClient();
  const graceDays = usePrivacySettings().data?.deletionGraceDays;
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300);
  const found = useQuery({ queryKey: ['admin:account-search', q], queryFn: ({ signal }) => findAccounts(q, signal), enabled: q.length >= 2 });
  const log = useQuery({ queryKey: LOG_KEY, queryFn: ({ signal }) => getAdminDeletions(signal) });
  const scheduled = (log.data ?? []).filter((row) => row.status === 'scheduled');
  const [reason, setReason] = useState('');
  const [undoing, setUndoing] = useState<string | null>(null);
  // A 409 says what to settle first (tickets still to come, an organiser's events or balances).
  const deletion = useConfirmedAction(async (account: { _id: string; username: string }) => {
    if (reason.trim().length < REASON_MIN) return t('admin.deletionReasonRequired');
    const answer = await scheduleAccountDeletion(account._id, reason.trim());
    notify.success(t('admin.deletionDone', { username: account.username, when: formatDateTime(answer.eraseAt) }));
    setReason('');
    await queryClient.invalidateQueries({ queryKey: LOG_KEY });
  }, t('admin.deletionFailed'));
  const pending = deletion.item;
  // Each account gets its own reason: what was typed for another one never carries over.
  const ask = (account: { _id: string; username: string }) => {
    setReason('');
    deletion.ask(account);
  };
  const undo = async (userId: string, username: string) => {
    setUndoing(userId);
    try {
      await undoAccountDeletionAsAdmin(userId);
      notify.success(t('admin.deletionUndone', { username }));
      await queryClient.invalidateQueries({ queryKey: LOG_KEY });
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('admin.deletionUndoFailed')));
    } finally {
      setUndoing(null);
    }
  };

  return (
    <section className="admin-section account-deletions" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('admin.deletionsTitle')}</h2>
      {graceDays !== undefined && <p className="muted">{t('admin.deletionsIntro', { days: graceDays })}</p>}
      <SearchField label={t('admin.deletionFind')} placeholder={t('admin.deletionFindPlaceholder')} value={search} onChange={setSearch} />
      {q.length >= 2 && found.data ? (
        found.data.length === 0 ? (
          <p className="empty-state">{t('admin.deletionNoAccounts')}</p>
        ) : (
          <ul className="account-deletions__list">
            {found.data.map((account) => (
              <li key={account._id}>
                <span>
                  <strong>{account.username}</strong> <span className="muted">{account.email}</span>
                </span>
                <Button variant="danger" className="btn--sm" aria-label={t('admin.deletionButtonLabel', { username: account.username })} onClick={() => ask(account)}>
                  {t('admin.deletionButton')}
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : null}

      <h3>{t('admin.deletionsScheduled')}</h3>
      {log.isPending ? (
        <p className="muted">{t('admin.loadingLog')}</p>
      ) : scheduled.length === 0 ? (
        <p className="empty-state">{t('admin.deletionsNone')}</p>
      ) : (
        <ul className="account-deletions__list">
          {scheduled.map((row) => (
            <li key={row.id}>
              <span>
                <strong>{row.username}</strong> · {t('admin.deletionErasedOn', { when: formatDateTime(row.eraseAt) })}
                {row.reason ? <span className="muted"> · “{row.reason}”</span> : null}
              </span>
              <Button
                variant="secondary"
                className="btn--sm"
                aria-label={t('admin.deletionUndoLabel', { username: row.username ?? '' })}
                loading={undoing === row.userId}
                loadingText={t('admin.working')}
                onClick={() => void undo(row.userId, row.username ?? '')}
              >
                {t('admin.deletionUndo')}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        {...deletion.dialog}
        title={t('admin.deletionDialogTitle', { username: pending?.username ?? '' })}
        description={<p>{graceDays !== undefined ? t('admin.deletionsIntro', { days: graceDays }) : null}</p>}
        confirmLabel={t('admin.deletionConfirm')}
        busyLabel={t('admin.working')}
        dismissLabel={t('admin.cancel')}
        tone="danger"
      >
        <TextAreaField label={t('admin.deletionReason')} hint={t('admin.deletionReasonHint')} value={reason} rows={2} maxLength={1000} data-autofocus onChange={(event) => setReason(event.target.value)} />
      </ConfirmDialog>
    </section>
  );
}
