import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { orderItems, orders } from '../checkout/index.js';
import { tickets } from '../tickets/index.js';
import { promoCodes, ticketTypes } from './ticket-types.schema.js';
import type { PromoCodeInput, TicketTypeInput } from './ticket-types.schemas.js';

export type TicketTypeRow = typeof ticketTypes.$inferSelect;
export type PromoCodeRow = typeof promoCodes.$inferSelect;

/** Ticket types and promo codes of events; the hold function (drizzle/0012) reads the same rows. */
export function createTicketTypesRepository(db: Executor) {
  return {
    async countForEvent(eventId: string): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(ticketTypes).where(eq(ticketTypes.eventId, eventId));
      return Number(row?.n ?? 0);
    },

    async listTypes(eventId: string): Promise<TicketTypeRow[]> {
      return db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId)).orderBy(asc(ticketTypes.position), asc(ticketTypes.createdAt));
    },

    /** Per type: valid tickets, seats held by live pending orders and reservations (those in `held` too), and reservations alone. */
    async typeCounts(eventId: string, now: Date): Promise<Map<string, { sold: number; held: number; reserved: number }>> {
      const result = await db.execute(sql`
        select t.id,
               (select count(*) from ${tickets} k where k.ticket_type_id = t.id and k.voided_at is null)::int as sold,
               (select coalesce(sum(i.quantity), 0) from ${orderItems} i join ${orders} o on o.id = i.order_id
                 where i.ticket_type_id = t.id and (o.status = 'reserved' or (o.status = 'pending' and o.hold_expires_at > ${now.toISOString()})))::int as held,
               (select coalesce(sum(i.quantity), 0) from ${orderItems} i join ${orders} o on o.id = i.order_id
                 where i.ticket_type_id = t.id and o.status = 'reserved')::int as reserved
          from ${ticketTypes} t where t.event_id = ${eventId}`);
      const rows = (result as unknown as { rows: Array<{ id: string; sold: number; held: number; reserved: number }> }).rows;
      return new Map(rows.map((row) => [row.id, { sold: Number(row.sold), held: Number(row.held), reserved: Number(row.reserved) }]));
    },

    /** Types of the event that something was ever bought or issued as (they can no longer be removed). */
    async typesInUse(typeIds: string[]): Promise<Set<string>> {
      if (typeIds.length === 0) return new Set();
      const result = await db.execute(sql`
        select distinct ticket_type_id as id from ${orderItems} where ticket_type_id in ${typeIds}
        union select distinct ticket_type_id from ${tickets} where ticket_type_id in ${typeIds}`);
      return new Set((result as unknown as { rows: Array<{ id: string }> }).rows.map((row) => row.id));
    },

    async deleteTypes(eventId: string, keep: string[]): Promise<void> {
      await db.delete(ticketTypes).where(and(eq(ticketTypes.eventId, eventId), keep.length > 0 ? notInArray(ticketTypes.id, keep) : undefined));
    },

    async saveType(eventId: string, position: number, input: Omit<TicketTypeInput, 'instalments' | 'dateId' | 'allDates'> & { instalments?: TicketTypeInput['instalments'] | undefined } & Partial<Pick<TicketTypeInput, 'dateId' | 'allDates'>>): Promise<void> {
      const values = {
        name: input.name,
        price: input.price,
        capacity: input.capacity,
        salesStart: input.salesStart,
        salesEnd: input.salesEnd,
        maxPerOrder: input.maxPerOrder,
        instalments: input.instalments ? { ...input.instalments, dueDate: input.instalments.dueDate.toISOString() } : null,
        dateId: input.dateId ?? null,
        allDates: input.allDates ?? false,
        position,
        updatedAt: new Date(),
      };
      if (input._id) await db.update(ticketTypes).set(values).where(and(eq(ticketTypes.id, input._id), eq(ticketTypes.eventId, eventId)));
      else await db.insert(ticketTypes).values({ id: newId(), eventId, ...values });
    },

    async listPromoCodes(eventId: string, now: Date) {
      return db
        .select({ code: promoCodes, uses: sql<number>`tukio_promo_uses(${promoCodes.id}, ${now.toISOString()})` })
        .from(promoCodes)
        .where(eq(promoCodes.eventId, eventId))
        .orderBy(asc(promoCodes.createdAt));
    },

    async findPromoCode(eventId: string, codeId: string): Promise<PromoCodeRow | undefined> {
      const [row] = await db.select().from(promoCodes).where(and(eq(promoCodes.id, codeId), eq(promoCodes.eventId, eventId)));
      return row;
    },

    async promoCodeUsed(codeId: string): Promise<boolean> {
      const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.promoCodeId, codeId)).limit(1);
      return Boolean(row);
    },

    /** Undefined when the event already has that code. */
    async insertPromoCode(eventId: string, input: PromoCodeInput): Promise<PromoCodeRow | undefined> {
      const [row] = await db
        .insert(promoCodes)
        .values({ id: newId(), eventId, ...input, ticketTypeIds: input.ticketTypeIds && input.ticketTypeIds.length > 0 ? input.ticketTypeIds : null })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    async deletePromoCode(codeId: string): Promise<void> {
      await db.delete(promoCodes).where(eq(promoCodes.id, codeId));
    },

    async endPromoCode(codeId: string, at: Date): Promise<void> {
      await db.update(promoCodes).set({ validUntil: at, updatedAt: new Date() }).where(eq(promoCodes.id, codeId));
    },

    async typesOfEvent(eventId: string, typeIds: string[]): Promise<string[]> {
      if (typeIds.length === 0) return [];
      const rows = await db.select({ id: ticketTypes.id }).from(ticketTypes).where(and(eq(ticketTypes.eventId, eventId), inArray(ticketTypes.id, typeIds)));
      return rows.map((row) => row.id);
    },
  };
}
