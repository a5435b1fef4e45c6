import type { Database } from '../../db/database.js';
import { ticketRecords } from '../tickets/index.js';
import { createGuestCheckoutRepository } from './guest-checkout.repository.js';

/**
 * Gives a guest's order to the account that claims it, in one transaction: the order, its payments and refunds
 * (checkout's rows), then the tickets the guest still holds (the tickets module's rows, moved by its service; a
 * ticket of the order given to someone else stays theirs). False when the order is no longer `fromUserId`'s: a
 * second taker moves nothing. Sign-in claims and POST /api/transactions both move orders through here.
 */
export function moveGuestOrder(db: Database, orderId: string, fromUserId: string, toUserId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await createGuestCheckoutRepository(tx).moveOrder(orderId, fromUserId, toUserId))) return false;
    await ticketRecords(tx).moveOrderTickets(orderId, fromUserId, toUserId);
    return true;
  });
}
