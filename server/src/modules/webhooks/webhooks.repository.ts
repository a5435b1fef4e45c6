import { and, arrayContains, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from './webhooks.schema.js';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Webhook endpoints, their deliveries and each delivery's attempts. */
export function createWebhooksRepository(db: Executor) {
  return {
    async addEndpoint(row: Pick<WebhookEndpointRow, 'userId' | 'url' | 'events' | 'secret'>): Promise<WebhookEndpointRow> {
      const [created] = await db.insert(webhookEndpoints).values({ id: newId(), ...row }).returning();
      return created!;
    },

    listEndpoints(userId: string): Promise<WebhookEndpointRow[]> {
      return db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.userId, userId), isNull(webhookEndpoints.removedAt))).orderBy(desc(webhookEndpoints.createdAt));
    },

    async removeEndpoint(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(webhookEndpoints)
        .set({ removedAt: new Date() })
        .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId), isNull(webhookEndpoints.removedAt)))
        .returning({ id: webhookEndpoints.id });
      return rows.length > 0;
    },

    /** One delivery per live endpoint of `userId` that asked for `eventType`, in the caller's transaction. */
    async enqueue(userId: string, eventType: string, payload: object): Promise<number> {
      const endpoints = await db
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.userId, userId), isNull(webhookEndpoints.removedAt), arrayContains(webhookEndpoints.events, [eventType])));
      if (endpoints.length === 0) return 0;
      await db.insert(webhookDeliveries).values(endpoints.map((endpoint) => ({ id: newId(), endpointId: endpoint.id, userId, eventType, payload })));
      return endpoints.length;
    },

    /** Due deliveries, leased until `leaseUntil` so another sender skips them while they are sent. */
    async claim(limit: number, now: Date, leaseUntil: Date) {
      const due = db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
        .orderBy(webhookDeliveries.nextAttemptAt)
        .limit(limit)
        .for('update', { skipLocked: true });
      const claimed = await db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: leaseUntil, attempts: sql`${webhookDeliveries.attempts} + 1` })
        .where(inArray(webhookDeliveries.id, due))
        .returning();
      if (claimed.length === 0) return [];
      const endpoints = await db.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, [...new Set(claimed.map((row) => row.endpointId))]));
      const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
      return claimed.map((delivery) => ({ delivery, endpoint: byId.get(delivery.endpointId)! }));
    },

    /** Records one attempt and where the delivery stands after it. */
    async recordAttempt(
      delivery: WebhookDeliveryRow,
      attempt: { statusCode: number | null; error: string | null; durationMs: number },
      next: { status: 'pending' | 'delivered' | 'failed'; nextAttemptAt?: Date },
    ) {
      await db.insert(webhookAttempts).values({ id: newId(), deliveryId: delivery.id, ...attempt });
      await db
        .update(webhookDeliveries)
        .set({
          status: next.status,
          lastStatusCode: attempt.statusCode,
          lastError: attempt.error,
          deliveredAt: next.status === 'delivered' ? new Date() : null,
          ...(next.nextAttemptAt ? { nextAttemptAt: next.nextAttemptAt } : {}),
        })
        .where(eq(webhookDeliveries.id, delivery.id));
    },

    /** The organiser's latest deliveries with their attempts, newest first. */
    async log(userId: string, limit: number) {
      const deliveries = await db
        .select({ delivery: webhookDeliveries, url: webhookEndpoints.url })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(eq(webhookDeliveries.userId, userId))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit);
      const ids = deliveries.map((row) => row.delivery.id);
      const attempts = ids.length ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(webhookAttempts.attemptedAt) : [];
      return deliveries.map((row) => ({ ...row, attempts: attempts.filter((attempt) => attempt.deliveryId === row.delivery.id) }));
    },

    /** "Send again": a new round of attempts, due now (only the organiser's own delivery). */
    async sendAgain(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(webhookDeliveries)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date() })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.userId, userId)))
        .returning({ id: webhookDeliveries.id });
      return rows.length > 0;
    },
  };
}
