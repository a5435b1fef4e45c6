/**
 * Africa's Talking's SMS API, as its documentation and SDKs describe it: POST {base}/version1/messaging,
 * form-encoded (username, to, message, optional from), `apiKey` and `Accept: application/json` headers.
 * Success is HTTP 201, but the body decides: a whole-request failure comes back as
 * `{"SMSMessageData":{"Message":"InvalidSenderId","Recipients":[]}}`, and each recipient has its own
 * statusCode (100 Processed, 101 Sent, 102 Queued; 4xx/5xx refused). Talks to the real service or to the
 * offline simulator (./sms-simulator.ts), which speaks the same protocol.
 */

export type SendOutcome =
  | { kind: 'accepted'; messageId: string; providerStatus: string; cost: string | null }
  /** Refused: `retry` for what may pass later (our balance, their gateway, the network), else for good. */
  | { kind: 'refused'; retry: boolean; providerStatus: string };

export interface SmsGateway {
  send(input: { to: string; message: string }): Promise<SendOutcome>;
}

/** Recipient statusCodes that mean "on its way". */
const ACCEPTED = new Set([100, 101, 102]);
/** Refusals worth trying again: InsufficientBalance (topped up later), InternalServerError, GatewayError, RejectedByGateway. */
const RETRYABLE = new Set([405, 500, 501, 502]);

interface Recipient {
  statusCode?: unknown;
  number?: unknown;
  status?: unknown;
  cost?: unknown;
  messageId?: unknown;
}

export function createAfricasTalkingGateway(options: {
  /** The API host, or a function for one known only once the server listens (the built-in simulator). */
  baseUrl: string | (() => string);
  username: string;
  apiKey: string;
  senderId?: string | undefined;
  timeoutMs?: number;
}): SmsGateway {
  const urlOf = () => `${(typeof options.baseUrl === 'string' ? options.baseUrl : options.baseUrl()).replace(/\/+$/, '')}/version1/messaging`;
  return {
    async send({ to, message }) {
      const url = urlOf();
      const form = new URLSearchParams({ username: options.username, to, message });
      if (options.senderId) form.set('from', options.senderId);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { apiKey: options.apiKey, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (error) {
        return { kind: 'refused', retry: true, providerStatus: `network: ${(error as Error).message}`.slice(0, 200) };
      }
      const text = await response.text();
      let body: { SMSMessageData?: { Message?: unknown; Recipients?: Recipient[] } } | undefined;
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        body = undefined;
      }
      const data = body?.SMSMessageData;
      const recipient = data?.Recipients?.[0];
      if (!recipient) {
        // A whole-request refusal (bad key, bad sender id) or an answer that is not the protocol's: the
        // service's own trouble (5xx) may pass; our configuration's will not until someone fixes it.
        const what = typeof data?.Message === 'string' ? data.Message : `HTTP ${response.status}: ${text.slice(0, 120)}`;
        return { kind: 'refused', retry: response.status >= 500, providerStatus: what.slice(0, 200) };
      }
      const code = Number(recipient.statusCode);
      const status = `${code} ${typeof recipient.status === 'string' ? recipient.status : ''}`.trim();
      if (ACCEPTED.has(code) && typeof recipient.messageId === 'string' && recipient.messageId && recipient.messageId !== 'None') {
        return { kind: 'accepted', messageId: recipient.messageId, providerStatus: status, cost: typeof recipient.cost === 'string' ? recipient.cost : null };
      }
      return { kind: 'refused', retry: RETRYABLE.has(code), providerStatus: status };
    },
  };
}

/** Africa's Talking wants the international form with a plus: 2547XXXXXXXX → +2547XXXXXXXX. */
export const toAfricasTalkingNumber = (msisdn: string) => (msisdn.startsWith('+') ? msisdn : `+${msisdn}`);
