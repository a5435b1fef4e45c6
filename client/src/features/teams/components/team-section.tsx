import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/form-field';
import { FormMessage } from '../../../components/ui/form-message';
import { Spinner } from '../../../components/ui/spinner';
import { serverErrorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { getTeam, inviteToTeam, removeMember, resendInvitation, revokeInvitation, TEAM_ROLES, teamKey, type TeamRole } from '../api/teams-api';
import { RoleName, useRoleTexts } from './role-name';
import '../teams.css';

type Removal = { kind: 'member' | 'invitation'; id: string; name: string };

/**
 * "Team": the organiser invites helpers (username or email) as co-organiser, finance or gate staff, to this
 * event (`eventId`) or to all their events, and lists who helps and who is invited, with revoke (confirmed).
 * Without `eventId` (on /payouts) every invitation is for all events.
 */
export function TeamSection({ eventId }: { eventId?: string }) {
  const t = useT();
  const client = useQueryClient();
  const titleId = useId();
  const roleTexts = useRoleTexts();
  const team = useQuery({ queryKey: teamKey(eventId), queryFn: ({ signal }) => getTeam(eventId, signal) });
  const [invitee, setInvitee] = useState('');
  const [role, setRole] = useState<TeamRole>('gate_staff');
  const [allEvents, setAllEvents] = useState(!eventId);
  const [removal, setRemoval] = useState<Removal | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ['team'] });
  const invite = useMutation({
    mutationFn: inviteToTeam,
    onSuccess: (created) => {
      setSentTo(created.invitee);
      setInvitee('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (target: Removal) => (target.kind === 'member' ? removeMember(target.id) : revokeInvitation(target.id)),
    onSuccess: () => {
      setRemoval(null);
      refresh();
    },
  });
  // The server ignores a second Resend within a minute; the button also stays busy while one is on its way.
  const resend = useMutation({
    mutationFn: resendInvitation,
    onSuccess: (renewed) => {
      setResent(renewed.invitee);
      refresh();
    },
  });
  const [resent, setResent] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSentTo(null);
    invite.mutate({ invitee: invitee.trim(), role, eventId: allEvents || !eventId ? null : eventId });
  };
  const scopeOf = (row: { event: { title: string } | null }) => (row.event ? row.event.title : t('teams.allEvents'));

  return (
    <section className="card team-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{eventId ? t('teams.eventTeamTitle') : t('teams.teamTitle')}</h2>
      <p className="muted">{t('teams.lead')}</p>
      <form className="team-form" onSubmit={submit}>
        <TextField label={t('teams.invitee')} value={invitee} maxLength={254} required autoComplete="off" onChange={(event) => setInvitee(event.target.value)} />
        <label className="field">
          <span className="field__label">{t('teams.role')}</span>
          <select className="field__control" value={role} onChange={(event) => setRole(event.target.value as TeamRole)}>
            {TEAM_ROLES.map((name) => (
              <option key={name} value={name}>
                {roleTexts.names[name]}
              </option>
            ))}
          </select>
        </label>
        <p className="muted team-form__role-note">{roleTexts.notes[role]}</p>
        {eventId ? (
          <label className="team-form__scope">
            <input type="checkbox" checked={allEvents} onChange={(event) => setAllEvents(event.target.checked)} /> {t('teams.allMyEvents')}
          </label>
        ) : null}
        {invite.error ? <FormMessage tone="error">{serverErrorMessage(invite.error, 'teams.inviteFailed')}</FormMessage> : null}
        {sentTo ? <FormMessage tone="success">{t('teams.invited', { name: sentTo })}</FormMessage> : null}
        <Button type="submit" loading={invite.isPending} loadingText={t('teams.inviting')}>
          {t('teams.invite')}
        </Button>
      </form>

      {team.isLoading ? (
        <p className="muted" role="status">
          <Spinner size="sm" /> {t('teams.loading')}
        </p>
      ) : team.error ? (
        <FormMessage tone="error">
          {serverErrorMessage(team.error, 'teams.loadFailed')}{' '}
          <Button variant="ghost" className="btn--sm" onClick={() => void team.refetch()}>
            {t('teams.tryAgain')}
          </Button>
        </FormMessage>
      ) : (
        <>
          <h3>{t('teams.members')}</h3>
          {team.data?.members.length ? (
            <ul className="team-list" aria-label={t('teams.members')}>
              {team.data.members.map((member) => (
                <li key={member._id} className="team-row">
                  <span>
                    <strong>{member.user.username}</strong> · <RoleName role={member.role} />
                    <br />
                    <small className="muted">{scopeOf(member)}</small>
                  </span>
                  <Button variant="ghost" className="btn--sm" onClick={() => setRemoval({ kind: 'member', id: member._id, name: member.user.username })}>
                    {t('teams.remove')}
                  </Button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t('teams.noMembers')}</p>
          )}
          <h3>{t('teams.pending')}</h3>
          {resend.error ? <FormMessage tone="error">{serverErrorMessage(resend.error, 'teams.resendFailed')}</FormMessage> : null}
          {resent ? <FormMessage tone="success">{t('teams.resent', { name: resent })}</FormMessage> : null}
          {team.data?.invitations.length ? (
            <ul className="team-list" aria-label={t('teams.pending')}>
              {team.data.invitations.map((invitation) => (
                <li key={invitation._id} className="team-row">
                  <span>
                    <strong>{invitation.invitee}</strong> · <RoleName role={invitation.role} />
                    <br />
                    <small className="muted">{scopeOf(invitation)}</small>
                    <br />
                    {invitation.status === 'expired' ? (
                      <small className="team-row__expired">{t('teams.expired')}</small>
                    ) : (
                      <small className="muted">{t('teams.expiresOn', { date: formatDateTime(invitation.expiresAt) })}</small>
                    )}
                  </span>
                  <span className="team-row__actions">
                    <Button
                      variant="ghost"
                      className="btn--sm"
                      aria-label={t('teams.resendTo', { name: invitation.invitee })}
                      loading={resend.isPending && resend.variables === invitation._id}
                      loadingText={t('teams.resending')}
                      disabled={resend.isPending}
                      onClick={() => {
                        setResent(null);
                        resend.mutate(invitation._id);
                      }}
                    >
                      {t('teams.resend')}
                    </Button>
                    <Button variant="ghost" className="btn--sm" onClick={() => setRemoval({ kind: 'invitation', id: invitation._id, name: invitation.invitee })}>
                      {t('teams.revoke')}
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t('teams.noPending')}</p>
          )}
        </>
      )}
      <ConfirmDialog
        open={removal !== null}
        title={removal?.kind === 'member' ? t('teams.removeTitle') : t('teams.revokeTitle')}
        description={removal ? (removal.kind === 'member' ? t('teams.removeText', { name: removal.name }) : t('teams.revokeText', { name: removal.name })) : ''}
        confirmLabel={removal?.kind === 'member' ? t('teams.remove') : t('teams.revoke')}
        busyLabel={t('teams.removing')}
        busy={remove.isPending}
        error={remove.error ? serverErrorMessage(remove.error, 'teams.removeFailed') : null}
        onConfirm={() => removal && remove.mutate(removal)}
        onClose={() => {
          setRemoval(null);
          remove.reset();
        }}
      />
    </section>
  );
}
