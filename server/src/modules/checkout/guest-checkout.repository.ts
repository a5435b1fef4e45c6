import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Language } from '@tukio/shared/languages';
import type { Executor } from '../../db/database.js';
import { users } from '../auth/index.js';
import { events } from '../events/index.js';
import { refunds } from './refunds.schema.js';
import { tickets } from '../tickets/index.js';
import { orders, payments } from './payments.schema.js';

/** Guest checkout's reads and writes (docs/decisions/guest-checkout.md): shadow accounts and moving their orders. */
export function createGuestCheckoutRepository(db: Executor) {
  return {
    /** The shadow account of a guest phone, if one was made. */
    async shadowAccount(phone: string): Promise<{ id: string; language: Language } | undefined> {
      const [row] = await db.select({ id: users.id, language: users.language }).from(users).where(eq(users.guestPhone, phone)).limit(1);
      return row;
    },

    /** The payment of a CheckoutRequestID with its order, and the guest phone when its owner is a shadow account. */
    async paymentOwner(checkoutRequestId: string) {
      const [row] = await db
        .select({ paymentStatus: payments.status, orderId: orders.id, orderStatus: orders.status, userId: payments.userId, guestPhone: users.guestPhone })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .innerJoin(users, eq(users.id, payments.userId))
        .where(eq(payments.checkoutRequestId, checkoutRequestId))
        .limit(1);
      return row;
    },

    /**
     * Moves an order and its payments and refunds from `fromUserId` to `toUserId` (its tickets are the
     * tickets module's to move: the caller does, in the same transaction). The order's own update is the
     * guard: a second mover finds it no longer `fromUserId`'s and moves nothing. Call inside a transaction.
     */
    async moveOrder(orderId: string, fromUserId: string, toUserId: string): Promise<boolean> {
      const now = new Date();
      const moved = await db
        .update(orders)
        .set({ userId: toUserId, updatedAt: now })
        .where(and(eq(orders.id, orderId), eq(orders.userId, fromUserId)))
        .returning({ id: orders.id });
      if (moved.length === 0) return false;
      await db.update(payments).set({ userId: toUserId, updatedAt: now }).where(eq(payments.orderId, orderId));
      await db.update(refunds).set({ userId: toUserId }).where(eq(refunds.orderId, orderId));
      return true;
    },

    /**
     * Guest orders `userId` may claim: those made with `email` (the account's verified address), and every
     * order of a shadow account whose phone `userId` has itself paid from successfully. Two lookups, each on
     * its index (orders_guest_email_idx; payments_user_idx → users_guest_phone_idx → orders_user_idx): one
     * OR across them would scan every order at every login.
     */
    async claimable(userId: string, email: string | null): Promise<Array<{ orderId: string; fromUserId: string }>> {
      const byEmail = email
        ? await db
            .select({ orderId: orders.id, fromUserId: orders.userId })
            .from(orders)
            .innerJoin(users, eq(users.id, orders.userId))
            .where(and(sql`lower(${orders.guestEmail}) = ${email.toLowerCase()}`, isNotNull(users.guestPhone)))
        : [];
      const paidPhones = db.selectDistinct({ phone: payments.phone }).from(payments).where(and(eq(payments.userId, userId), eq(payments.status, 'success')));
      const byPhone = await db
        .select({ orderId: orders.id, fromUserId: orders.userId })
        .from(users)
        .innerJoin(orders, eq(orders.userId, users.id))
        .where(inArray(users.guestPhone, paidPhones));
      const seen = new Set<string>();
      return [...byEmail, ...byPhone].filter((row) => !seen.has(row.orderId) && Boolean(seen.add(row.orderId)));
    },

    /** A guest order's event and tickets, for its ticket page; undefined once it no longer belongs to a shadow account. */
    async guestOrder(orderId: string) {
      const [order] = await db
        .select({
          id: orders.id,
          status: orders.status,
          guestPhone: users.guestPhone,
          event: {
            id: events.id,
            title: events.title,
            startsAt: events.startsAt,
            location: events.location,
            status: events.status,
            cancelReason: events.cancelReason,
            cancelledAt: events.cancelledAt,
          },
        })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(and(eq(orders.id, orderId), isNotNull(users.guestPhone)))
        .limit(1);
      if (!order) return undefined;
      const rows = await db
        .select({ id: tickets.id, code: tickets.code, checkedInAt: tickets.checkedInAt, voidedAt: tickets.voidedAt, voidReason: tickets.voidReason })
        .from(tickets)
        .where(eq(tickets.orderId, orderId))
        .orderBy(asc(tickets.createdAt), asc(tickets.id));
      // What is coming back to the guest (an event cancelled, tickets given back): oldest first.
      const moneyBack = await db
        .select({ amount: refunds.amount, reason: refunds.reason, status: refunds.status, receipt: refunds.receipt, createdAt: refunds.createdAt })
        .from(refunds)
        .where(eq(refunds.orderId, orderId))
        .orderBy(asc(refunds.createdAt), asc(refunds.id));
      return { ...order, tickets: rows, refunds: moneyBack };
    },
  };
}
