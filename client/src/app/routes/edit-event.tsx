/*
 * EDIT EVENT (docs/product.md /edit-event/{id}): organisers and admins; no stored user goes to /login.
 * Anyone else is told so as soon as the event loads, instead of getting a form the server would refuse.
 * Below the form, the event can be cancelled; a cancelled event is final, so it shows why instead of a form.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { FormMessage } from '../../components/ui/form-message';
import { PageLoader } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { RichText, useT } from '../../lib/i18n';
import { useSession } from '../../hooks/use-session';
import { CancelEventButton, EditEventForm, EventCancelledBanner, EventLoadFailure, getEvent, SeriesDatesPanel, type EventItem } from '../../features/events';
// "The event's creator or an admin": the same rule as the door check-in, asked the same way.
import { useStaffAccess } from '../../features/tickets';
import { TeamSection } from '../../features/teams';
import { PendingChangeNotice } from '../../components/event-review/pending-change-notice';
import { getPendingChange, type PendingChange } from '../../lib/event-review-api';
import '../../features/events/event-form.css';

export default function EditEventRoute() {
  const t = useT();
  useDocumentTitle(t('events.editTitle'));
  const { id = '' } = useParams();
  const { user, isLoggedIn } = useSession();
  const userId = isLoggedIn && user ? user._id : null;
  const queryClient = useQueryClient();
  const { data: event, error, isLoading: loading, refetch } = useQuery({ queryKey: ['events', 'edit', id], queryFn: ({ signal }) => getEvent(id, signal), enabled: Boolean(userId) });
  const reload = () => void refetch();
  const setEvent = (change: Partial<EventItem>) => queryClient.setQueryData<EventItem>(['events', 'edit', id], (current) => (current ? { ...current, ...change } : current));
  // Asked once the event is known, so its organiser never waits for a role lookup.
  // Co-organisers (teams) edit too; the server checks the same on every request.
  const access = useStaffAccess(event ? userId : null, event?.user, undefined, { eventId: id, roles: ['co_organiser'] });
  const [justCancelled, setJustCancelled] = useState(false);
  // An organiser's edit of a published event waits for review beside it: what waits (or was rejected) is shown here.
  // (An admin editing someone else's event changes it at once; the organiser is who proposes.)
  const reviewed = event?.status === 'approved' && event.user === userId;
  const setProposal = (change: PendingChange | null) => queryClient.setQueryData(['events', 'pending-change', id], change);
  const proposal = useQuery({ queryKey: ['events', 'pending-change', id], queryFn: ({ signal }) => getPendingChange(id, signal), enabled: Boolean(event && reviewed && access === 'allowed') });

  if (!userId) return <Navigate to={paths.login} replace state={{ from: paths.editEvent(id) }} />;
  if (loading) return <PageLoader label={t('events.loadingEvent')} />;

  if (error || !event) return <EventLoadFailure error={error} onRetry={reload} back={{ to: paths.profile, label: t('events.myEvents') }} />;

  if (access === 'checking') return <PageLoader label={t('events.checkingAccess')} />;
  if (access === 'denied') {
    return (
      <section className="page page--narrow status-page">
        <h1>{t('events.editTitle')}</h1>
        <FormMessage tone="error">{t('events.notYourEvent')}</FormMessage>
        <div className="status-page__actions">
          <Link className="btn btn--secondary" to={paths.event(event._id)}>
            {t('events.backToEvent')}
          </Link>
        </div>
      </section>
    );
  }

  if (event.status === 'cancelled') {
    return (
      <div className="page page--narrow">
        <header className="page-hero">
          <h1>{t('events.editTitle')}</h1>
          <p className="lead">
            <RichText id="events.cancelledNoEdit" parts={{ title: <Link to={paths.event(event._id)}>{event.title}</Link> }} />
          </p>
        </header>
        <EventCancelledBanner event={event} focus={justCancelled} />
        <div className="button-row edit-event__after">
          <Link className="btn btn--secondary" to={paths.event(event._id)}>
            {t('events.backToEvent')}
          </Link>
          <Link className="btn btn--ghost" to={paths.profile}>
            {t('events.myEvents')}
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="page page--narrow">
      <header className="page-hero">
        <h1>{t('events.editTitle')}</h1>
        <p className="lead">
          <RichText id="events.editing" parts={{ title: <Link to={paths.event(event._id)}>{event.title}</Link> }} />
        </p>
      </header>
      {proposal.data ? <PendingChangeNotice change={proposal.data} onWithdrawn={() => setProposal(null)} /> : null}
      {reviewed && proposal.isLoading ? (
        <PageLoader label={t('events.loadingEvent')} />
      ) : (
        <EditEventForm
          // A new proposal (or its withdrawal) starts the form again from the values now waiting.
          key={`${event._id}:${proposal.data?.proposedAt ?? 'none'}:${proposal.data?.status ?? ''}`}
          event={event}
          reviewed={reviewed}
          proposal={proposal.data}
          onProposed={(change) => {
            setProposal(change);
            window.scrollTo({ top: 0, behavior: 'smooth' });
          }}
        />
      )}
      <SeriesDatesPanel eventId={event._id} />
      {/* The team is the organiser's alone to change (docs/decisions/teams.md). */}
      {event.user === userId ? <TeamSection eventId={event._id} /> : null}
      <section className="card edit-event__danger" aria-labelledby="cancel-event-title">
        <h2 id="cancel-event-title">{t('events.cancelThisEvent')}</h2>
        <p className="muted">
          {event.isPaid ? t('events.cancelWarningPaid') : t('events.cancelWarningFree')}
        </p>
        <CancelEventButton
          event={event}
          onCancelled={(cancelled) => {
            setJustCancelled(true);
            setEvent(cancelled);
          }}
        />
      </section>
    </div>
  );
}
