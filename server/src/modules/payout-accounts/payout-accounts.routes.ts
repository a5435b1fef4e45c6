import { Router, type RequestHandler } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { payoutAccount } from './payout-accounts.responses.js';
import { confirmBody, requestBody } from './payout-accounts.schemas.js';
import type { PayoutAccountsService } from './payout-accounts.service.js';

/** /api/payout-account: where the signed-in organiser's payouts go. */
export function createPayoutAccountsRouter(deps: { payoutAccounts: PayoutAccountsService; limit: RequestHandler }) {
  const { payoutAccounts } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Payout account');
  const notOrganiser = 'Not an organiser (has created no event) nor an admin.';

  routes.get(
    '/',
    {
      summary: 'Where your payouts go (organiser or admin)',
      access: 'user',
      description: 'Your active destination (masked), the 24 h hold a change puts on payouts, and a change waiting for its SMS code.',
      responses: { 200: { description: '`{active, heldUntil, pending}`.', schema: payoutAccount }, 403: notOrganiser },
    },
    ({ user }) => payoutAccounts.mine(user),
  );

  routes.post(
    '/',
    {
      summary: 'Add or change where your payouts go: sends a 6-digit code by SMS',
      access: 'user',
      refuseRestricted: true,
      use: [deps.limit],
      description:
        'Takes your account password and the destination: an M-Pesa number (B2C), a Paybill with its account number, or a Till (B2B). ' +
        'The code goes to the M-Pesa number itself, or for a Paybill or Till to `codePhone`. Nothing changes until the code is confirmed ' +
        '(POST /api/payout-account/confirm) within 10 minutes. At most 5 codes an hour.',
      body: requestBody,
      responses: {
        202: { description: 'Code sent: `{active, heldUntil, pending}`.', schema: payoutAccount },
        403: 'Wrong password (nothing changed), or not an organiser.',
        409: 'That is already the active destination.',
        429: 'Too many codes sent in the last hour.',
      },
    },
    ({ user, body }) => payoutAccounts.request(user, body),
  );

  routes.post(
    '/confirm',
    {
      summary: 'Confirm a new payout destination with its SMS code',
      access: 'user',
      refuseRestricted: true,
      use: [deps.limit],
      description: 'The destination becomes active. Replacing an active one emails you and holds payouts for 24 hours. 5 wrong codes lock the request.',
      body: confirmBody,
      responses: {
        200: { description: 'The new state: `{active, heldUntil, pending: null}`.', schema: payoutAccount },
        400: 'Wrong code (`params.attemptsLeft`) or an expired one.',
        403: notOrganiser,
        404: 'No change is waiting for a code.',
        429: 'The code was entered wrong too many times: ask for a new one.',
      },
    },
    ({ user, body }) => payoutAccounts.confirm(user, body.code),
  );
  return router;
}
