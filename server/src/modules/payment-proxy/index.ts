/** The payment-proxy module's public face (docs/decisions/server-boundaries.md). */
export { createPaymentProxy } from './payment-proxy.js';
