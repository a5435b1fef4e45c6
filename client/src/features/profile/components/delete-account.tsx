/*
 * PROFILE › "Your data" › Delete my account (docs/decisions/data-rights.md, "Deleting an account"): asked for with
 * the password; the server emails a confirmation link. When something must be settled first it answers 409 with
 * the list, shown here: tickets to events still to come (with what cancelling each gives back, and the choice to
 * let them become void without refund), or an organiser's events still to come and money still owed. A request
 * waiting for its link is read from the server (GET /api/me/account-deletion), so it still shows after a reload;
 * "Send the link again" asks again (with the password), which replaces the earlier link.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form-field';
import { paths } from '../../../config/paths';
import { getErrorResponse, getErrorStatus, getErrorMessage } from '../../../lib/errors';
import { formatDateTime, formatShillings } from '../../../lib/format';
import { usePrivacySettings } from '../../../hooks/use-privacy-settings';
import { useT } from '../../../lib/i18n';
import { getAccountDeletionStatus, requestAccountDeletion, type DeletionBlockers } from '../api/profile-api';

export function DeleteAccount({ userId }: { userId: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const queryKey = ['account-deletion', userId];
  const status = useQuery({ queryKey, queryFn: ({ signal }) => getAccountDeletionStatus(signal) });
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [forfeit, setForfeit] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [blockers, setBlockers] = useState<DeletionBlockers | null>(null);
  // The grace period is the server's setting (ACCOUNT_DELETION_GRACE_DAYS), never a number written here.
  const graceDays = usePrivacySettings().data?.deletionGraceDays;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setFailure(null);
    try {
      await requestAccountDeletion(password, forfeit);
      // The server's answer carries the new link's expiry: read back rather than guessed here.
      await queryClient.invalidateQueries({ queryKey });
      setOpen(false);
      setBlockers(null);
      setPassword('');
    } catch (error) {
      setFailure(getErrorMessage(error, t('profile.deleteAccountFailed')));
      setBlockers(getErrorStatus(error) === 409 ? ((getErrorResponse(error)?.data as DeletionBlockers | undefined) ?? null) : null);
    } finally {
      setSending(false);
    }
  };

  const waiting = status.data?.state === 'requested' ? status.data : null;
  if (waiting && !open) {
    return (
      <div className="delete-account__waiting">
        <p role="status" className="your-data__state">
          {t('profile.deleteAccountSent', { email: waiting.email, until: formatDateTime(waiting.expiresAt) })}
        </p>
        <Button type="button" variant="ghost" onClick={() => setOpen(true)}>
          {t('profile.deleteAccountSendAgain')}
        </Button>
      </div>
    );
  }
  if (!open) {
    return (
      <Button type="button" variant="danger" className="delete-account__open" onClick={() => setOpen(true)}>
        {t('profile.deleteAccountButton')}
      </Button>
    );
  }
  return (
    <form className="delete-account" onSubmit={(event) => void submit(event)}>
      <h3>{t('profile.deleteAccountHeading')}</h3>
      {graceDays !== undefined && <p>{t('profile.deleteAccountIntro', { days: graceDays })}</p>}
      <TextField label={t('profile.deleteAccountPassword')} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} required />
      {failure && (
        <p role="alert" className="form-message form-message--error">
          {failure}
        </p>
      )}
      {blockers?.tickets && blockers.tickets.length > 0 && (
        <div className="delete-account__list">
          <ul>
            {blockers.tickets.map((ticket) => (
              <li key={ticket.ticketId}>
                <Link to={paths.event(ticket.eventId)}>{ticket.title}</Link> · {formatDateTime(ticket.startsAt)}
                {ticket.ticketType ? ` · ${ticket.ticketType}` : ''} ·{' '}
                {ticket.pricePaid === 0 ? t('profile.deleteAccountFree') : ticket.cancellable ? t('profile.deleteAccountRefund', { amount: formatShillings(ticket.refund) }) : t('profile.deleteAccountNoCancel')}
              </li>
            ))}
          </ul>
          <label className="delete-account__forfeit">
            <input type="checkbox" checked={forfeit} onChange={(event) => setForfeit(event.target.checked)} /> {t('profile.deleteAccountForfeit')}
          </label>
        </div>
      )}
      {((blockers?.futureEvents?.length ?? 0) > 0 || (blockers?.moneyOwed?.length ?? 0) > 0) && (
        <ul className="delete-account__list">
          {blockers?.futureEvents?.map((event) => (
            <li key={event.eventId}>
              <Link to={paths.event(event.eventId)}>{event.title}</Link> · {t('profile.deleteAccountEventToCome', { when: formatDateTime(event.startsAt) })}
            </li>
          ))}
          {blockers?.moneyOwed?.map((owed) => (
            <li key={`owed-${owed.eventId}`}>
              {owed.title} · {t('profile.deleteAccountOwed', { amount: formatShillings(Math.abs(owed.owed)) })}
            </li>
          ))}
        </ul>
      )}
      <div className="delete-account__actions">
        <Button type="submit" variant="danger" loading={sending} loadingText={t('profile.deleteAccountSending')} disabled={password === ''}>
          {t('profile.deleteAccountSubmit')}
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          {t('profile.deleteAccountKeep')}
        </Button>
      </div>
    </form>
  );
}
