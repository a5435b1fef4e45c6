import type { PayoutStatusBody, SendPayoutBody } from '@tukio/shared/internal-payouts';
import { createRequestGateway, type RequestGateway } from '../checkout/index.js';

export type { SendOutcome } from '../checkout/index.js';

/** What the payouts job asks of M-Pesa, through the payment service (@tukio/shared/internal-payouts): see checkout's request gateway. */
export type PayoutGateway = RequestGateway<SendPayoutBody, PayoutStatusBody>;

/** POST /internal/payouts and /internal/payouts/status on the payment service (X-Internal-Key). */
export const createPayoutGateway = (options: { paymentUrl: string; internalApiKey: string; timeoutMs: number }): PayoutGateway =>
  createRequestGateway(options, { what: 'payout', send: '/internal/payouts', status: '/internal/payouts/status' });
