import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signatures as Standard Webhooks define them (docs/decisions/webhooks.md): the secret is `whsec_` and a
 * base64 key; the signed content is `<webhook-id>.<webhook-timestamp>.<body>`, HMAC-SHA256 with the key,
 * base64, sent as `v1,<signature>` in `webhook-signature` beside `webhook-id` and `webhook-timestamp`
 * (Unix seconds). A receiver recomputes it and refuses old timestamps, so a captured delivery cannot be replayed.
 */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one delivery attempt. */
export function webhookHeaders(secret: string, id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Tukio-Webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}
