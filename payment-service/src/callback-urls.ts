import type { PayoutUrls } from './payouts/payouts.js';
import type { RefundUrls } from './refunds/refunds.js';

/**
 * Where Daraja posts the results of our requests: siblings of the STK callback, `…/mpesa/<kind>/<which>/<secret>`,
 * behind the same unguessable CALLBACK_SECRET segment, naming our attempt in the query (`?ocid=`; Daraja names a
 * reversal, a B2B payment and a status query with its own ids) and a refund status query's method (`&method=`).
 * `callbackUrl` is the STK callback's URL without the secret (DARAJA_CALLBACK_URL, or this service's own).
 */
export function callbackUrls(callbackUrl: string, secret: string): { payouts: PayoutUrls; refunds: RefundUrls } {
  const mpesaBase = callbackUrl.replace(/\/callback\/?$/, '');
  const url = (kind: string, which: string, attempt: string, method?: string) =>
    `${mpesaBase}/${kind}/${which}/${secret}?ocid=${encodeURIComponent(attempt)}${method ? `&method=${method}` : ''}`;
  return {
    payouts: {
      result: (attempt) => url('payout', 'result', attempt),
      timeout: (attempt) => url('payout', 'timeout', attempt),
      statusResult: (attempt) => url('payout', 'status-result', attempt),
      statusTimeout: (attempt) => url('payout', 'status-timeout', attempt),
    },
    refunds: {
      result: (kind, attempt) => url(kind, 'result', attempt),
      timeout: (kind, attempt) => url(kind, 'timeout', attempt),
      statusResult: (method, attempt) => url('status', 'result', attempt, method),
      statusTimeout: (method, attempt) => url('status', 'timeout', attempt, method),
    },
  };
}
