import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { orders } from '../checkout/index.js';

/** The queries readiness and the metrics need. */
export function createOpsRepository(db: Executor) {
  return {
    /** One round trip: the database answers. */
    async ping() {
      await db.execute(sql`select 1`);
    },
    /** Paid orders that could not get seats and still wait for their refund (read at each scrape). */
    async countRefundsDue() {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.status, 'refund_due'));
      return Number(row?.n ?? 0);
    },
  };
}
