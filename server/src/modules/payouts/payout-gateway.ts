import { sendPayoutAnswer, type PayoutStatusBody, type SendPayoutAnswer, type SendPayoutBody } from '@tukio/shared/internal-payouts';
import { createInternalCaller, GatewayUnreachable, parsedBody, PushOutcomeUnknown } from '../checkout/index.js';

/**
 * What the payouts job asks of M-Pesa, through the payment service (@tukio/shared/internal-payouts). `send`
 * answers Daraja's synchronous answer (`accepted` or `rejected`), `unsent` when the request certainly never
 * reached Daraja (the payment service was unreachable or answered 503: the same attempt may be sent again), and
 * `unknown` when it may have (a 502, a lost answer, a timeout): never sent again blindly, its status is asked.
 */
export type SendOutcome = SendPayoutAnswer | { outcome: 'unsent' } | { outcome: 'unknown' };

export interface PayoutGateway {
  send(payout: SendPayoutBody): Promise<SendOutcome>;
  /** Asks for the attempt's Transaction Status; the answer comes later as a result. Throws when it was not taken. */
  askStatus(question: PayoutStatusBody): Promise<void>;
}

/** POST /internal/payouts and /internal/payouts/status on the payment service (X-Internal-Key). */
export function createPayoutGateway(options: { paymentUrl: string; internalApiKey: string; timeoutMs: number }): PayoutGateway {
  const call = createInternalCaller(options);
  return {
    async send(payout) {
      let answer;
      try {
        answer = await call('/internal/payouts', payout);
      } catch (error) {
        if (error instanceof GatewayUnreachable) return { outcome: 'unsent' };
        if (error instanceof PushOutcomeUnknown) return { outcome: 'unknown' };
        throw error;
      }
      if (answer.status === 200) {
        const parsed = sendPayoutAnswer.safeParse(parsedBody(answer.text));
        // An answer we cannot read may still mean it was sent.
        return parsed.success ? parsed.data : { outcome: 'unknown' };
      }
      if (answer.status === 503) return { outcome: 'unsent' };
      // A 4xx is our request refused before Daraja (nothing paid): the attempt failed, and is retried like a rejection.
      if (answer.status >= 400 && answer.status < 500) {
        const body = parsedBody(answer.text);
        return { outcome: 'rejected', resultCode: `http-${answer.status}`, resultDesc: typeof body.message === 'string' ? body.message : `the payment service refused the payout (${answer.status})` };
      }
      return { outcome: 'unknown' };
    },
    async askStatus(question) {
      const answer = await call('/internal/payouts/status', question);
      if (answer.status !== 202 && answer.status !== 200) throw new Error(`payout status through the payment service answered ${answer.status}`);
    },
  };
}
