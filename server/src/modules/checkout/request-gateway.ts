import { sendRequestAnswer, type SendRequestAnswer } from '@tukio/shared/internal-refunds';
import { createInternalCaller, GatewayUnreachable, parsedBody, PushOutcomeUnknown } from './payment-gateway.js';

/**
 * What a refund or payout attempt came to at the payment service: Daraja's synchronous answer (`accepted` or
 * `rejected`), `unsent` when the request certainly never reached Daraja (the payment service was unreachable or
 * answered 503: the same attempt may be sent again), and `unknown` when it may have (a 502, a lost answer, a
 * timeout): never sent again blindly, its status is asked.
 */
export type SendOutcome = SendRequestAnswer | { outcome: 'unsent' } | { outcome: 'unknown' };

export interface RequestGateway<Send, Status> {
  send(attempt: Send): Promise<SendOutcome>;
  /** Asks for the attempt's Transaction Status; the answer comes later as a result. Throws when it was not taken. */
  askStatus(question: Status): Promise<void>;
}

/**
 * One Daraja request per attempt through the payment service (X-Internal-Key): POST `paths.send` and
 * `paths.status` — /internal/payouts (@tukio/shared/internal-payouts) and /internal/refunds
 * (@tukio/shared/internal-refunds) answer alike.
 */
export function createRequestGateway<Send, Status>(
  options: { paymentUrl: string; internalApiKey: string; timeoutMs: number },
  paths: { what: string; send: string; status: string },
): RequestGateway<Send, Status> {
  const call = createInternalCaller(options);
  return {
    async send(attempt) {
      let answer;
      try {
        answer = await call(paths.send, attempt);
      } catch (error) {
        if (error instanceof GatewayUnreachable) return { outcome: 'unsent' };
        if (error instanceof PushOutcomeUnknown) return { outcome: 'unknown' };
        throw error;
      }
      if (answer.status === 200) {
        const parsed = sendRequestAnswer.safeParse(parsedBody(answer.text));
        // An answer we cannot read may still mean it was sent.
        return parsed.success ? parsed.data : { outcome: 'unknown' };
      }
      if (answer.status === 503) return { outcome: 'unsent' };
      // A 4xx is our request refused before Daraja (nothing paid): the attempt failed, and is retried like a rejection.
      if (answer.status >= 400 && answer.status < 500) {
        const body = parsedBody(answer.text);
        return { outcome: 'rejected', resultCode: `http-${answer.status}`, resultDesc: typeof body.message === 'string' ? body.message : `the payment service refused the ${paths.what} (${answer.status})` };
      }
      return { outcome: 'unknown' };
    },
    async askStatus(question) {
      const answer = await call(paths.status, question);
      if (answer.status !== 202 && answer.status !== 200) throw new Error(`${paths.what} status through the payment service answered ${answer.status}`);
    },
  };
}
