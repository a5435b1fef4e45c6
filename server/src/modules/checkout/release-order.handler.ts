import type { Database } from '../../db/database.js';
import type { Logger } from '../../lib/logger.js';
import { createPaymentsRepository } from './payments.repository.js';

/** Daraja refused the push (or it was never sent): the held order fails and its seats are free at once. */
export function createReleaseOrderHandler(deps: { db: Database; logger: Logger }) {
  async function handle(orderId: string, reason: string) {
    const order = await createPaymentsRepository(deps.db).setOrderStatus(orderId, 'failed', ['pending']);
    if (order) deps.logger.info(`order ${orderId} released: ${reason}`);
    return { released: Boolean(order) };
  }
  return { handle };
}
