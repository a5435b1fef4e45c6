import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import type { AccountDeletionService } from './account-deletion.service.js';
import { accountSearchQuery, accountSearchResult, adminDeletionBody, adminDeletionLog, deletionCancelled, deletionRequestBody, deletionRequested, deletionScheduled, deletionStatus, deletionTokenBody, userParams } from './account-deletion.schemas.js';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** /api/me/account-deletion: "Delete my account", asked for signed in (docs/decisions/data-rights.md). */
export function createAccountDeletionRequestRouter(deps: { deletions: AccountDeletionService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Your data');
  routes.get(
    '/account-deletion',
    {
      summary: 'Your account deletion request still waiting for its emailed confirmation, if any',
      access: 'user',
      responses: { 200: { description: '`{state: "none"}` or `{state: "requested", email, expiresAt}`.', schema: deletionStatus } },
    },
    ({ user }) => deps.deletions.status(user.id),
  );
  routes.post(
    '/account-deletion',
    {
      summary: 'Ask to delete your account (a confirmation link is emailed)',
      access: 'user',
      description:
        'Asks for the password again. Refused (409) with the list of what to settle first: events you organise that are still to come or money still owed on your events ' +
        '(`futureEvents`, `moneyOwed`); tickets to events still to come (`tickets`, with what cancelling each gives back under its refund policy) unless `forfeitTickets` accepts them void without refund.',
      body: deletionRequestBody,
      responses: {
        202: { description: 'The confirmation link was emailed: `{state, email}`.', schema: deletionRequested },
        403: 'Wrong password.',
        409: 'Something to settle first (the body lists it), or an administrator account.',
      },
    },
    ({ user, body }) => deps.deletions.request(user.id, body),
  );
  return router;
}

/** /api/account-deletion/…: the emailed links, followed signed in or not. */
export function createAccountDeletionLinksRouter(deps: { deletions: AccountDeletionService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Your data');
  routes.post(
    '/confirm',
    {
      summary: 'Confirm an account deletion (the emailed link)',
      access: 'optional',
      description:
        'Works signed in or not: the link proves the mailbox, the request asked for the password. Signed in as another account, it is refused and stays usable. ' +
        'The account is deactivated at once (every session ends) and erased after the grace period unless the emailed undo link is followed.',
      body: deletionTokenBody,
      responses: {
        200: { description: '`{state: "scheduled", eraseAt}`.', schema: deletionScheduled },
        404: 'The link belongs to another account than the one signed in.',
        409: 'Something to settle first appeared since the request (the body lists it).',
        410: 'The link was used already, has expired (24 hours), or does not exist.',
      },
    },
    ({ body, user }) => deps.deletions.confirm(body.token, user?.id),
  );
  routes.post(
    '/undo',
    {
      summary: 'Undo an account deletion before its erasure (the emailed link)',
      access: 'optional',
      body: deletionTokenBody,
      responses: {
        200: { description: 'The account is restored: `{state: "cancelled"}`; log in again.', schema: deletionCancelled },
        404: 'The link belongs to another account than the one signed in.',
        410: 'The link was used already, the account was erased, or the link does not exist.',
      },
    },
    ({ body, user }) => deps.deletions.undo(body.token, user?.id),
  );
  return router;
}

/** /api/admin/…: an administrator deletes an account on a written request, or undoes it. */
export function createAdminAccountDeletionRouter(deps: { deletions: AccountDeletionService }) {
  const router = Router();
  const routes = declareRoutes(router, 'Admin');
  routes.post(
    '/users/:id/deletion',
    {
      summary: 'Delete an account on the person’s written request (reason logged; undoable during the grace period)',
      access: 'admin',
      description: 'No password or email step. The same checks as the person’s own request (409 with the list), the same grace period; the person is emailed the undo link.',
      params: userParams,
      body: adminDeletionBody,
      responses: {
        200: { description: '`{state: "scheduled", eraseAt}`.', schema: deletionScheduled },
        404: 'No such account.',
        409: 'Something to settle first (the body lists it), already scheduled, or an administrator account.',
      },
    },
    ({ user, params, body }) => deps.deletions.adminSchedule(user.id, params.id, body),
  );
  routes.delete(
    '/users/:id/deletion',
    {
      summary: 'Undo a scheduled account deletion',
      access: 'admin',
      params: userParams,
      responses: {
        200: { description: 'The account is restored: `{state: "cancelled"}`.', schema: deletionCancelled },
        404: 'The account is not scheduled for deletion.',
      },
    },
    ({ user, params }) => deps.deletions.adminUndo(user.id, params.id),
  );
  routes.get(
    '/account-deletions/accounts',
    {
      summary: 'Find the account a written deletion request is about (username prefix or exact email)',
      access: 'admin',
      query: accountSearchQuery,
      responses: { 200: { description: '`{users}` (20 at most), with their emails to match the request.', schema: accountSearchResult } },
    },
    ({ query }) => deps.deletions.findAccounts(query.q),
  );
  routes.get(
    '/account-deletions',
    {
      summary: 'The log of account deletions administrators made or undid (who, when, why)',
      access: 'admin',
      responses: { 200: { description: '`{deletions}`, newest first (200 at most).', schema: adminDeletionLog } },
    },
    async () => ({
      deletions: (await deps.deletions.adminLog()).map((row) => ({
        id: row.id,
        userId: row.user_id,
        username: row.username,
        status: row.status as 'requested' | 'scheduled' | 'cancelled' | 'erased',
        requestedBy: row.requested_by,
        reason: row.reason,
        eraseAt: iso(row.erase_at),
        cancelledBy: row.cancelled_by,
        createdAt: iso(row.created_at)!,
      })),
    }),
  );
  return router;
}
