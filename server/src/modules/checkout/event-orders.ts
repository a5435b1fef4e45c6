import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { orders } from './payments.schema.js';

/**
 * An event's settled orders (paid, refund due, cancelled) for its organiser's own systems (api-keys' GET
 * /api/v1/events/:id/orders): amounts and states, never the buyer's phone or email.
 */
export async function eventOrders(executor: Executor, eventId: string) {
  const rows = await executor
    .select({ id: orders.id, userId: orders.userId, quantity: orders.quantity, amount: orders.amount, discount: orders.discount, feeAmount: orders.feeAmount, status: orders.status, createdAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.eventId, eventId), inArray(orders.status, ['paid', 'refund_due', 'cancelled'])))
    .orderBy(asc(orders.createdAt), asc(orders.id));
  return rows.map(({ id, createdAt, ...rest }) => ({ orderId: id, ...rest, createdAt: createdAt.toISOString() }));
}
