import { createHmac } from 'node:crypto';

/**
 * What proves a request came from the payment service's section-7 adapter (its /api/stkPush and /api/confirmPayment,
 * forwarding to the API server's /pay): a key derived from INTERNAL_API_KEY, never the key itself on the wire. Only
 * with it does the API server believe the buyer's address the adapter forwards (its per-address budget).
 */
export const ADAPTER_KEY_HEADER = 'x-tukio-proxy-key';
export const adapterKey = (internalApiKey: string) => createHmac('sha256', internalApiKey).update('tukio payment proxy').digest('base64url');
