import type { Executor } from '../../db/database.js';
import { createWebhooksRepository } from './webhooks.repository.js';
import type { WebhookEventType } from './webhooks.schema.js';

/** Called after a write so the sender looks soon (set by the sender when it starts; a no-op before). */
let nudge: () => void = () => undefined;
export const onWebhookQueued = (callback: () => void) => {
  nudge = callback;
};

/**
 * A fact for the organiser's webhooks: one delivery per endpoint that asked for `type`, written with
 * `executor` — pass the transaction of the fact, so a fact rolled back sends nothing. The sender job
 * picks the rows up (docs/decisions/webhooks.md).
 */
export async function emitWebhook(executor: Executor, organiserId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
  const queued = await createWebhooksRepository(executor).enqueue(organiserId, type, { type, createdAt: new Date().toISOString(), data });
  if (queued > 0) nudge();
}
