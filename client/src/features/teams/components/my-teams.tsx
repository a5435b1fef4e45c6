import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { serverErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { answerInvitation, getMyInvitations, getMyMemberships, myInvitationsKey, myMembershipsKey, type TeamMembership, type TeamRole } from '../api/teams-api';
import { RoleName } from './role-name';
import '../teams.css';

const checksIn = (role: TeamRole) => role === 'co_organiser' || role === 'gate_staff';
const readsSales = (role: TeamRole) => role === 'co_organiser' || role === 'finance';
/** Only finance for ALL of an organiser's events reads the organiser's payouts (the server checks the same). */
const readsOrganiserPayouts = (membership: TeamMembership) => membership.role === 'finance' && membership.scope === 'all';

/**
 * The signed-in person's side of teams (on /profile): invitations waiting for an answer (Accept / Decline; the
 * one an email link names, `?invitation=`, is marked) and the events they help with, with what their role opens.
 */
export function MyTeams() {
  const t = useT();
  const client = useQueryClient();
  const titleId = useId();
  const [search] = useSearchParams();
  const linked = search.get('invitation');
  const invitations = useQuery({ queryKey: myInvitationsKey, queryFn: ({ signal }) => getMyInvitations(signal) });
  const memberships = useQuery({ queryKey: myMembershipsKey, queryFn: ({ signal }) => getMyMemberships(signal) });
  const answer = useMutation({
    mutationFn: answerInvitation,
    onSuccess: () => void client.invalidateQueries({ queryKey: ['team'] }),
  });
  const loading = invitations.isLoading || memberships.isLoading;
  const failed = invitations.error ?? memberships.error;
  if (!loading && !failed && !invitations.data?.length && !memberships.data?.length) return null;

  return (
    <section className="card team-section" aria-labelledby={titleId} id="team">
      <h2 id={titleId}>{t('teams.myTeamsTitle')}</h2>
      {loading ? (
        <p className="muted" role="status">
          <Spinner size="sm" /> {t('teams.loading')}
        </p>
      ) : failed ? (
        <FormMessage tone="error">
          {serverErrorMessage(failed, 'teams.loadFailed')}{' '}
          <Button
            variant="ghost"
            className="btn--sm"
            onClick={() => {
              void invitations.refetch();
              void memberships.refetch();
            }}
          >
            {t('teams.tryAgain')}
          </Button>
        </FormMessage>
      ) : null}
      {invitations.data?.length ? (
        <>
          <h3>{t('teams.invitationsTitle')}</h3>
          <ul className="team-list" aria-label={t('teams.invitationsTitle')}>
            {invitations.data.map((invitation) => (
              <li key={invitation._id} className={`team-row${invitation._id === linked ? ' team-row--linked' : ''}`}>
                <span>
                  {invitation.event
                    ? t('teams.invitedToEvent', { organiser: invitation.organiser.username, title: invitation.event.title })
                    : t('teams.invitedToAll', { organiser: invitation.organiser.username })}{' '}
                  · <RoleName role={invitation.role} />
                </span>
                {invitation.status === 'expired' ? (
                  <small className="team-row__expired">{t('teams.expiredAsk', { organiser: invitation.organiser.username })}</small>
                ) : (
                  <span className="button-row">
                    <Button className="btn--sm" loading={answer.isPending && answer.variables?.id === invitation._id && answer.variables.answer === 'accept'} loadingText={t('teams.answering')} disabled={answer.isPending} onClick={() => answer.mutate({ id: invitation._id, answer: 'accept' })}>
                      {t('teams.accept')}
                    </Button>
                    <Button variant="ghost" className="btn--sm" disabled={answer.isPending} onClick={() => answer.mutate({ id: invitation._id, answer: 'decline' })}>
                      {t('teams.decline')}
                    </Button>
                  </span>
                )}
              </li>
            ))}
          </ul>
          {answer.error ? <FormMessage tone="error">{serverErrorMessage(answer.error, 'teams.answerFailed')}</FormMessage> : null}
        </>
      ) : null}
      {memberships.data?.length ? (
        <>
          <h3>{t('teams.helpingTitle')}</h3>
          {memberships.data.some(readsOrganiserPayouts) ? (
            <ul className="team-list" aria-label={t('teams.payoutsListLabel')}>
              {memberships.data.filter(readsOrganiserPayouts).map((membership) => (
                <li key={membership._id} className="team-row">
                  <span>
                    <Link to={paths.organiserPayouts(membership.organiser._id)} state={{ organiser: membership.organiser.username }}>
                      {t('teams.organiserPayouts', { organiser: membership.organiser.username })}
                    </Link>
                    <br />
                    <small className="muted">{t('teams.organiserPayoutsHint', { organiser: membership.organiser.username })}</small>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          <ul className="team-list" aria-label={t('teams.helpingTitle')}>
            {memberships.data.flatMap((membership) =>
              membership.events.map((event) => (
                <li key={`${membership._id}:${event._id}`} className="team-row">
                  <span>
                    <Link to={paths.event(event._id)}>{event.title}</Link> · <RoleName role={membership.role} />
                    <br />
                    <small className="muted">
                      {t('teams.organisedBy', { organiser: membership.organiser.username })} · {formatDateTime(event.startsAt)}
                    </small>
                  </span>
                  <span className="button-row">
                    {checksIn(membership.role) ? (
                      <Link className="btn btn--secondary btn--sm" to={paths.checkin(event._id)} aria-label={t('teams.checkInFor', { title: event.title })}>
                        {t('teams.checkIn')}
                      </Link>
                    ) : null}
                    {readsSales(membership.role) ? (
                      <Link className="btn btn--ghost btn--sm" to={paths.eventDashboard(event._id)} aria-label={t('teams.dashboardFor', { title: event.title })}>
                        {t('teams.dashboard')}
                      </Link>
                    ) : null}
                    {membership.role === 'co_organiser' ? (
                      <Link className="btn btn--ghost btn--sm" to={paths.editEvent(event._id)} aria-label={t('teams.editFor', { title: event.title })}>
                        {t('teams.edit')}
                      </Link>
                    ) : null}
                  </span>
                </li>
              )),
            )}
          </ul>
        </>
      ) : null}
    </section>
  );
}
