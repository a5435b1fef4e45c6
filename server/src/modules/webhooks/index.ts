/**
 * The webhooks module's public face (docs/decisions/webhooks.md): organisers' signed HTTPS notifications.
 * Modules where a fact happens call `emitWebhook(tx, organiserId, type, data)` inside the fact's transaction.
 */
export { emitWebhook } from './emit-webhook.js';
export { createWebhooksRouter } from './webhooks.routes.js';
export { createWebhooks, type Webhooks } from './webhooks.service.js';
export { signWebhook } from './webhook-signature.js';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks.schema.js';
export { webhooksPersonalData } from './personal-data.js';
