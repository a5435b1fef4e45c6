import { randomBytes } from 'node:crypto';
import type { CreateGuestOrderRequest } from '@tukio/shared/internal-api';
import { DEFAULT_LANGUAGE, type Language } from '@tukio/shared/languages';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';
import { createShadowAccount, setAccountLanguage } from '../auth/index.js';
import { createGuestCheckoutRepository } from './guest-checkout.repository.js';
import type { GuestTicketLinks } from './guest-ticket-links.js';
import { moveGuestOrder } from './move-guest-order.js';
import type { PaymentsService } from './payments.service.js';

/** A password hash bcrypt can never match (and login refuses shadow accounts before comparing anyway). */
const UNUSABLE_PASSWORD_HASH = '!guest-account';

/** "Guest 2547…678": enough for the door staff and the buyer to recognise, not the whole number. */
export const guestHolderName = (phone: string) => `Guest ${phone.slice(0, 4)}…${phone.slice(-3)}`;

/**
 * Guest checkout (docs/decisions/guest-checkout.md): a phone buys without an account through its shadow
 * account (users.guest_phone; it cannot log in and is listed nowhere), so orders, payments and tickets keep
 * one owner. A signed-in account later takes the orders over: the one it confirms with POST /api/transactions
 * (payments.service), and on login or email verification every guest order of its verified email or of a
 * phone it has paid from.
 */
export function createGuestCheckout(deps: { db: Database; payments: PaymentsService; links: GuestTicketLinks; logger: Logger }) {
  const { db } = deps;

  /**
   * The phone's shadow account, made on its first purchase (a concurrent first purchase finds the winner's).
   * `language` (the buyer's browser's, when the payment service says it) is kept on it for the tickets' SMS and email.
   */
  async function shadowAccountFor(phone: string, language: Language | undefined): Promise<string> {
    const repo = createGuestCheckoutRepository(db);
    const existing = await repo.shadowAccount(phone);
    if (existing) {
      // The phone's latest purchase says which language its SMS (and ticket email) are written in.
      if (language && existing.language !== language) await setAccountLanguage(db, existing.id, language);
      return existing.id;
    }
    // `guest-<phone>` normally; a real account that took that name (or address) first gets a suffix instead.
    for (const suffix of ['', `-${randomBytes(3).toString('hex')}`]) {
      try {
        const row = await createShadowAccount(db, {
          username: `guest-${phone}${suffix}`,
          // `.invalid` is reserved (RFC 2606): this address can never receive mail or be anyone's.
          email: `${phone}${suffix}@guest.invalid`,
          passwordHash: UNUSABLE_PASSWORD_HASH,
          guestPhone: phone,
          language: language ?? DEFAULT_LANGUAGE,
        });
        return row.id;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const raced = await repo.shadowAccount(phone);
        if (raced) return raced.id;
      }
    }
    throw new AppError(503, 'guest_checkout_unavailable', 'Tukio could not start a guest purchase right now. Please try again in a moment.');
  }

  return {
    /** POST /api/internal/payments/guest-orders: hold seats for a phone without an account (priced on the server as any order). */
    async createOrder(input: CreateGuestOrderRequest) {
      return deps.payments.createOrder(await shadowAccountFor(input.phone, input.language), input);
    },

    /** Moves to `user` every guest order it may claim; answers how many moved. Never fails the sign-in that calls it. */
    async claim(user: { id: string; email: string; emailVerified: boolean }): Promise<number> {
      try {
        const claimable = await createGuestCheckoutRepository(db).claimable(user.id, user.emailVerified ? user.email : null);
        let moved = 0;
        for (const order of claimable) {
          if (await moveGuestOrder(db, order.orderId, order.fromUserId, user.id)) moved += 1;
        }
        if (moved > 0) deps.logger.info(`account ${user.id} claimed ${moved} guest order${moved === 1 ? '' : 's'}`);
        return moved;
      } catch (error) {
        deps.logger.error(`claiming guest orders for ${user.id} failed`, error);
        return 0;
      }
    },

    /** The order a guest's SMS link opens while it is still a guest's; undefined for a forged link or a claimed order. */
    async orderOfLink(token: string): Promise<string | undefined> {
      const orderId = deps.links.orderIdOf(token);
      return orderId && (await createGuestCheckoutRepository(db).guestOrder(orderId)) ? orderId : undefined;
    },

    /** GET /api/guest-tickets/:token: the order's event and tickets, for whoever holds the SMS link. */
    async ticketsFor(token: string) {
      const orderId = deps.links.orderIdOf(token);
      const order = orderId ? await createGuestCheckoutRepository(db).guestOrder(orderId) : undefined;
      if (!order) throw AppError.notFound('guest_tickets_not_found', 'These tickets were not found. If you have since signed in, they are under My Tickets.');
      const holder = guestHolderName(order.guestPhone ?? '');
      return {
        orderStatus: order.status,
        event: {
          _id: order.event.id,
          title: order.event.title,
          date: order.event.startsAt.toISOString(),
          location: order.event.location,
          status: order.event.status,
          cancelReason: order.event.cancelReason,
          cancelledAt: order.event.cancelledAt?.toISOString() ?? null,
        },
        tickets: order.tickets.map((ticket) => ({
          _id: ticket.id,
          code: ticket.code,
          holder,
          checkedInAt: ticket.checkedInAt?.toISOString() ?? null,
          voidedAt: ticket.voidedAt?.toISOString() ?? null,
          voidReason: ticket.voidReason,
        })),
        refunds: order.refunds.map((refund) => ({
          amount: refund.amount,
          reason: refund.reason,
          status: refund.status,
          receipt: refund.receipt,
          createdAt: refund.createdAt.toISOString(),
        })),
      };
    },
  };
}

export type GuestCheckout = ReturnType<typeof createGuestCheckout>;
