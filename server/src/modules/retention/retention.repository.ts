import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import type { RetentionMap, RetentionScope } from '../../lib/retention.js';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * An event ends at the midnight after its start day (events have no end time; payouts count from the same
 * moment, payouts/payable-now.ts `eventEndsAt`). Stored times are wall-clock in UTC, so `starts_at` before the
 * UTC midnight of `at` means the event had ended by then.
 */
const endedBy = (at: Date) => sql`e.starts_at < date_trunc('day', ${at.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC'`;
/** Refunds still to be paid need the buyer's phone: an event with one waits until it is settled. */
const refundsOpen = sql`exists (select 1 from refunds r where r.event_id = e.id and r.status <> 'succeeded')`;

export interface EventRetentionState {
  id: string;
  ended: boolean;
  refundsOpen: boolean;
  shreddedAt: Date | null;
}

export function createRetentionRepository(db: Executor) {
  return {
    /** Events ended before `cutoff`, not yet shredded and without refunds to pay, oldest first. */
    async dueEvents(cutoff: Date, limit: number): Promise<string[]> {
      return rowsOf<{ id: string }>(
        await db.execute(sql`
          select e.id from events e
           where ${endedBy(cutoff)}
             and not exists (select 1 from event_shreds s where s.event_id = e.id)
             and not ${refundsOpen}
           order by e.starts_at, e.id
           limit ${limit}`),
      ).map((row) => row.id);
    },

    /** What an administrator's shred must know of an event, locked against a concurrent shred; undefined when there is none. */
    async eventState(eventId: string, now: Date): Promise<EventRetentionState | undefined> {
      const [row] = rowsOf<{ id: string; ended: boolean; refunds_open: boolean; shredded_at: string | Date | null }>(
        await db.execute(sql`
          select e.id, ${endedBy(now)} as ended, ${refundsOpen} as refunds_open,
                 (select s.shredded_at from event_shreds s where s.event_id = e.id) as shredded_at
            from events e where e.id = ${eventId} for update of e`),
      );
      if (!row) return undefined;
      return { id: row.id, ended: row.ended, refundsOpen: row.refunds_open, shreddedAt: row.shredded_at === null ? null : new Date(row.shredded_at) };
    },

    /**
     * Records the event as shredded and erases every declared column of its rows, in the caller's transaction.
     * Answers undefined when it was shredded already (another instance, an earlier run): nothing is changed.
     */
    async shred(map: RetentionMap, eventId: string, by: { adminId: string; reason: string } | null): Promise<{ shreddedAt: Date; rowsErased: number } | undefined> {
      const [claimed] = rowsOf<{ shredded_at: string | Date }>(
        await db.execute(sql`
          insert into event_shreds (event_id, shredded_by, reason) values (${eventId}, ${by?.adminId ?? null}, ${by?.reason ?? null})
          on conflict (event_id) do nothing returning shredded_at`),
      );
      if (!claimed) return undefined;
      const scope: RetentionScope = {
        eventId,
        shredded: (column: SQL) => sql`(${column} = ${eventId} or exists (select 1 from event_shreds s where s.event_id = ${column}))`,
      };
      let rowsErased = 0;
      for (const rows of map.rows) {
        const columns = Object.entries(rows.erase);
        // Only rows still holding something: a rerun, or a row erased by an earlier declaration, is not counted.
        const holding = sql.join(
          columns.map(([column, value]) => sql`${sql.identifier(column)} is distinct from ${value}`),
          sql` or `,
        );
        const updated = rowsOf<unknown>(
          await db.execute(sql`
            update ${sql.identifier(rows.table)}
               set ${sql.join(columns.map(([column, value]) => sql`${sql.identifier(column)} = ${value}`), sql`, `)}
             where (${rows.rows(scope)}) and (${holding})
             returning 1`),
        );
        rowsErased += updated.length;
      }
      await db.execute(sql`update event_shreds set rows_erased = ${rowsErased} where event_id = ${eventId}`);
      return { shreddedAt: new Date(claimed.shredded_at), rowsErased };
    },
  };
}
