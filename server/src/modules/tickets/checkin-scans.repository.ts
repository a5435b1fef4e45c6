import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { users } from '../auth/index.js';
import { checkinScans, ticketDateCheckins, tickets } from './tickets.schema.js';

export type ScanRow = typeof checkinScans.$inferSelect;

/** Door scans (drizzle/0011): what the gate sync and the gate list read and write. */
export function createCheckinScansRepository(db: Executor) {
  return {
    /** A series' dates (docs/decisions/event-series.md) as the gate needs them: empty for an event with one date. */
    async eventDates(eventId: string): Promise<Array<{ id: string; startsAt: Date; status: string }>> {
      const result = await db.execute(sql`select d.id, d.starts_at, d.status from "event_dates" d where d.event_id = ${eventId}`);
      return (result as unknown as { rows: Array<{ id: string; starts_at: string | Date; status: string }> }).rows.map((row) => ({ id: row.id, startsAt: new Date(row.starts_at), status: row.status }));
    },

    /**
     * The admission on a series' date, as the online door writes it (once per ticket and date). An offline scan
     * synced after a later one moves it back to the earlier time: the earliest scan on a date admits.
     */
    async admitOnDate(ticketId: string, dateId: string, at: Date, by: string): Promise<void> {
      await db
        .insert(ticketDateCheckins)
        .values({ ticketId, dateId, checkedInAt: at, checkedInBy: by })
        .onConflictDoUpdate({
          target: [ticketDateCheckins.ticketId, ticketDateCheckins.dateId],
          set: { checkedInAt: sql`excluded.checked_in_at`, checkedInBy: sql`excluded.checked_in_by` },
          setWhere: sql`${ticketDateCheckins.checkedInAt} > excluded.checked_in_at`,
        });
    },

    /** Every admission on the series' dates of the event's tickets, for the gate list. */
    async dateCheckinsOfEvent(eventId: string) {
      return db
        .select({ ticketId: ticketDateCheckins.ticketId, dateId: ticketDateCheckins.dateId, checkedInAt: ticketDateCheckins.checkedInAt })
        .from(ticketDateCheckins)
        .innerJoin(tickets, eq(tickets.id, ticketDateCheckins.ticketId))
        .where(eq(tickets.eventId, eventId));
    },

    /** The ticket row, locked until the transaction ends: scans of one ticket are decided one at a time. */
    async lockTicket(ticketId: string) {
      const [row] = await db.select().from(tickets).where(eq(tickets.id, ticketId)).for('update');
      return row;
    },

    /**
     * Records a scan unless the same device already sent it (same ticket, device and device time): a
     * retried sync. Answers the stored row either way.
     */
    async record(scan: Omit<typeof checkinScans.$inferInsert, 'id' | 'createdAt'>): Promise<ScanRow> {
      const [inserted] = await db
        .insert(checkinScans)
        .values({ ...scan, id: newId() })
        .onConflictDoNothing({ target: [checkinScans.ticketId, checkinScans.device, checkinScans.deviceScannedAt] })
        .returning();
      if (inserted) return inserted;
      const [existing] = await db
        .select()
        .from(checkinScans)
        .where(
          and(
            eq(checkinScans.ticketId, scan.ticketId),
            scan.device === null || scan.device === undefined ? sql`${checkinScans.device} is null` : eq(checkinScans.device, scan.device),
            eq(checkinScans.deviceScannedAt, scan.deviceScannedAt),
          ),
        )
        .limit(1);
      return existing!;
    },

    /**
     * The ticket's scans, the one that admits it first (earliest time; the one received first on a tie). With
     * `dateId` (a series) only the scans for that date: a pass is admitted once on each date.
     */
    async scansOf(ticketId: string, dateId?: string | null): Promise<ScanRow[]> {
      return db
        .select()
        .from(checkinScans)
        .where(and(eq(checkinScans.ticketId, ticketId), dateId ? eq(checkinScans.dateId, dateId) : undefined))
        .orderBy(asc(checkinScans.scannedAt), asc(checkinScans.createdAt), asc(checkinScans.id));
    },

    /** Makes `scan` the one that admitted the ticket. */
    async admit(ticketId: string, scan: Pick<ScanRow, 'scannedAt' | 'scannedBy' | 'device'>) {
      await db.update(tickets).set({ checkedInAt: scan.scannedAt, checkedInBy: scan.scannedBy, checkedInDevice: scan.device }).where(eq(tickets.id, ticketId));
    },

    /** Every ticket of the event with its holder, void ones too (a gate must refuse those offline). */
    async gateTickets(eventId: string) {
      return db
        .select({
          id: tickets.id,
          userId: tickets.userId,
          username: users.username,
          email: users.email,
          orderId: tickets.orderId,
          createdAt: tickets.createdAt,
          checkedInAt: tickets.checkedInAt,
          checkedInDevice: tickets.checkedInDevice,
          voidedAt: tickets.voidedAt,
          voidReason: tickets.voidReason,
          dateId: tickets.dateId,
        })
        .from(tickets)
        .innerJoin(users, eq(users.id, tickets.userId))
        .where(eq(tickets.eventId, eventId))
        .orderBy(users.username, tickets.id);
    },

    /** Every scan of the event's checked-in tickets, in time order per ticket and date (the gate list flags all but each one's first). */
    async scansOfEvent(eventId: string): Promise<ScanRow[]> {
      return db
        .select({ scan: checkinScans })
        .from(checkinScans)
        .innerJoin(tickets, eq(tickets.id, checkinScans.ticketId))
        .where(and(eq(checkinScans.eventId, eventId), isNotNull(tickets.checkedInAt)))
        .orderBy(asc(checkinScans.ticketId), sql`${checkinScans.dateId} nulls first`, asc(checkinScans.scannedAt), asc(checkinScans.createdAt), asc(checkinScans.id))
        .then((rows) => rows.map((row) => row.scan));
    },
  };
}
