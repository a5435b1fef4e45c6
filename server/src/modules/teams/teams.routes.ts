import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { invitation, invitations, memberships, removed, team } from './teams.responses.js';
import { idParams, inviteBody, teamQuery } from './teams.schemas.js';
import type { TeamsService } from './teams.service.js';

/** /api/teams — an organiser's team, and the invitations and memberships of the people on it (docs/decisions/teams.md). */
export function createTeamsRouter(deps: { teams: TeamsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Teams');

  routes.get(
    '/',
    {
      summary: "The caller's team as an organiser: members and pending invitations (`eventId`: those covering that event)",
      access: 'user',
      query: teamQuery,
      responses: { 200: { description: '`{members, invitations}`.', schema: team } },
    },
    ({ user, query }) => deps.teams.teamOf(user, query.eventId),
  );

  routes.post(
    '/invitations',
    {
      summary: 'Invite someone (username or email) to help with one of your events, or all of them, as co-organiser, finance or gate staff',
      access: 'user',
      body: inviteBody,
      refuseRestricted: true,
      responses: {
        201: { description: 'The invitation; an email with Accept and Decline links is sent to the invitee.', schema: invitation },
        400: 'Bad input, or inviting yourself.',
        403: 'Not the organiser of the event (or of any event, for all events).',
        404: 'No such event, or no account with that username.',
        409: 'Already on this team or invited to it.',
      },
    },
    ({ user, body }) => deps.teams.invite(user, body),
  );

  routes.delete(
    '/invitations/:id',
    {
      summary: 'Withdraw a pending invitation (the organiser who sent it)',
      access: 'owner',
      params: idParams,
      responses: { 200: { description: 'The invitation, now revoked.', schema: invitation }, 404: 'Not found (or not yours).', 409: 'Already answered or withdrawn.' },
    },
    ({ user, params }) => deps.teams.revokeInvitation(user, params.id),
  );

  routes.post(
    '/invitations/:id/resend',
    {
      summary: 'Send a pending or expired invitation again, with a new expiry (the organiser who sent it)',
      access: 'owner',
      params: idParams,
      refuseRestricted: true,
      description: 'The invitation can be accepted for 14 days from now. A second resend within a minute (a double click) sends no second mail.',
      responses: { 200: { description: 'The invitation, pending again.', schema: invitation }, 404: 'Not found (or not yours).', 409: 'Already answered or withdrawn.' },
    },
    ({ user, params }) => deps.teams.resendInvitation(user, params.id),
  );

  routes.delete(
    '/members/:id',
    {
      summary: "Remove someone from your team: their access ends with their next request",
      access: 'owner',
      params: idParams,
      responses: { 200: { description: '`{removed: true}`.', schema: removed }, 404: 'Not found (or not your team).' },
    },
    ({ user, params }) => deps.teams.removeMember(user, params.id),
  );

  routes.get(
    '/invitations/mine',
    {
      summary: 'Invitations waiting for the caller (to their account, or to their verified email)',
      access: 'user',
      responses: { 200: { description: 'Bare array of invitations.', schema: invitations } },
    },
    ({ user }) => deps.teams.invitationsFor(user),
  );

  routes.post(
    '/invitations/:id/accept',
    {
      summary: 'Accept an invitation made to you: you join the team with its role',
      access: 'owner',
      params: idParams,
      responses: { 200: { description: 'The invitation, now accepted.', schema: invitation }, 404: 'Not found (or not yours).', 409: 'Already answered or withdrawn.' },
    },
    ({ user, params }) => deps.teams.accept(user, params.id),
  );

  routes.post(
    '/invitations/:id/decline',
    {
      summary: 'Decline an invitation made to you',
      access: 'owner',
      params: idParams,
      responses: { 200: { description: 'The invitation, now declined.', schema: invitation }, 404: 'Not found (or not yours).', 409: 'Already answered or withdrawn.' },
    },
    ({ user, params }) => deps.teams.decline(user, params.id),
  );

  routes.get(
    '/memberships/mine',
    {
      summary: "The teams the caller is on: each organiser, role, and the events it covers",
      access: 'user',
      responses: { 200: { description: 'Bare array `[{_id, organiser, role, scope, events}]`.', schema: memberships } },
    },
    ({ user }) => deps.teams.membershipsOf(user),
  );
  return router;
}
