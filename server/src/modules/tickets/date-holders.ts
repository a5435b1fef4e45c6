import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import type { Language } from '../../lib/i18n.js';
import { users } from '../auth/index.js';
import { tickets } from './tickets.schema.js';

/** One person to tell about a series date: where their mail goes and what they hold for it. */
export interface DateHolder {
  /** The account's email, or for a guest buyer the email given at checkout (never the shadow account's placeholder). */
  email: string;
  /** Null for a guest buyer: their mail says "Hello," */
  username: string | null;
  language: Language;
  /** Accounts whose tickets these are (a guest's shadow account, or the member). */
  userIds: string[];
  /** Tickets for this date itself. */
  dated: number;
  /** All-dates passes of the series. */
  passes: number;
}

/**
 * Who holds tickets for one date of a series (docs/decisions/event-series.md): the tickets named (a cancelled
 * date's, just voided) or the valid tickets for the date, and with `passes` the valid all-dates passes too,
 * grouped per address. A guest buyer who gave no email at checkout has none here (their SMS link shows the change).
 */
export async function dateHolders(db: Executor, input: { eventId: string; dateId: string; ticketIds?: string[]; passes: boolean }): Promise<DateHolder[]> {
  const forDate: SQL = input.ticketIds ? (input.ticketIds.length > 0 ? inArray(tickets.id, input.ticketIds) : sql`false`) : and(eq(tickets.dateId, input.dateId), isNull(tickets.voidedAt))!;
  const passes = input.passes ? and(isNull(tickets.dateId), isNull(tickets.voidedAt)) : undefined;
  const rows = await db
    .select({
      userId: tickets.userId,
      dateId: tickets.dateId,
      email: users.email,
      username: users.username,
      language: users.language,
      guestPhone: users.guestPhone,
      guestEmail: sql<string | null>`(select guest_email from tukio_ticket_order(${tickets.orderId}))`,
    })
    .from(tickets)
    .innerJoin(users, eq(users.id, tickets.userId))
    .where(and(eq(tickets.eventId, input.eventId), passes ? or(forDate, passes) : forDate));
  const byAddress = new Map<string, DateHolder>();
  for (const row of rows) {
    const guest = row.guestPhone !== null;
    const email = guest ? row.guestEmail : row.email;
    if (!email) continue;
    const key = email.toLowerCase();
    const holder = byAddress.get(key) ?? byAddress.set(key, { email, username: guest ? null : row.username, language: row.language, userIds: [], dated: 0, passes: 0 }).get(key)!;
    if (!holder.userIds.includes(row.userId)) holder.userIds.push(row.userId);
    if (row.dateId === null) holder.passes += 1;
    else holder.dated += 1;
  }
  return [...byAddress.values()];
}
