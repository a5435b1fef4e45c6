import { escapeHtml } from '../../lib/html.js';
import { mailWallClock, translator, type Language } from '../../lib/i18n.js';
import type { Mail } from '../../lib/mailer.js';
import { toWallClock } from '../../lib/event-clock.js';
import type { TeamRole } from '../../lib/team-access.js';

export interface TeamInvitationMailInput {
  to: string;
  language: Language;
  organiser: string;
  role: TeamRole;
  /** The event's title, or null for all the organiser's events. */
  eventTitle: string | null;
  invitationId: string;
  /** Until when it can be accepted (the mail names the day). */
  expiresAt: Date;
  publicUrl: string;
}

/**
 * The invitation email: who invites, to what, as what, with Accept and Decline links. The links open the
 * invitee's profile page (its Teams section) (signed in as the invitee), where the answer is given: a link alone never accepts,
 * so a forwarded or prefetched mail cannot put someone on a team.
 */
export function buildTeamInvitationMail(input: TeamInvitationMailInput): Mail {
  const t = translator(input.language);
  const scope = input.eventTitle === null ? t('team.scopeAll') : t('team.scopeEvent', { title: input.eventTitle });
  const line = t('team.inviteBody', { organiser: input.organiser, scope, role: t(`team.role.${input.role}`) });
  // The profile page lists the person's invitations and marks the one the link names.
  const page = `${input.publicUrl}/profile?invitation=${encodeURIComponent(input.invitationId)}`;
  const accept = `${page}&answer=accept#team`;
  const decline = `${page}&answer=decline#team`;
  const note = `${t('team.expiresNote', { when: mailWallClock(toWallClock(input.expiresAt), input.language) })} ${t('team.signInNote')}`;
  const text = `${line}\n\n${t('team.accept')}: ${accept}\n${t('team.decline')}: ${decline}\n\n${note}\n`;
  const html =
    `<p>${escapeHtml(line)}</p>` +
    `<p><a href="${escapeHtml(accept)}">${escapeHtml(t('team.accept'))}</a> · <a href="${escapeHtml(decline)}">${escapeHtml(t('team.decline'))}</a></p>` +
    `<p>${escapeHtml(note)}</p>`;
  return { to: input.to, subject: t('team.inviteSubject', { organiser: input.organiser }).slice(0, 200), text, html };
}
