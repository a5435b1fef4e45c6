import type { Database } from '../../db/database.js';
import { createPaymentsRepository } from './payments.repository.js';

/** How far back the reconciler asks M-Pesa about successes no query has confirmed: Daraja forgets requests after a while. */
const UNCONFIRMED_LOOKBACK_MS = 24 * 60 * 60 * 1000;

const asListed = (rows: Array<{ checkoutRequestId: string; createdAt: Date }>) => rows.map((row) => ({ checkoutRequestId: row.checkoutRequestId, createdAt: row.createdAt.toISOString() }));

/**
 * The reconciler's pass on the API server's side: holds whose time ran out are marked expired (counting already
 * ignores them; this makes them final), and it is told which payments to ask M-Pesa about.
 */
export function createExpireHoldsHandler(deps: { db: Database }) {
  /** Expires stale holds, then lists pushes with no result yet, sent more than `olderThanSeconds` ago. */
  async function handle(olderThanSeconds: number, limit: number) {
    const now = new Date();
    const repo = createPaymentsRepository(deps.db);
    await repo.expireHolds(now);
    return asListed(await repo.pendingBefore(new Date(now.getTime() - olderThanSeconds * 1000), limit));
  }

  /** Successes recorded from a callback alone (no STK query agreed yet), unchanged for `olderThanSeconds`, of the last day. */
  async function unconfirmedSuccesses(olderThanSeconds: number, limit: number) {
    const now = Date.now();
    return asListed(await createPaymentsRepository(deps.db).unconfirmedSuccesses(new Date(now - UNCONFIRMED_LOOKBACK_MS), new Date(now - olderThanSeconds * 1000), limit));
  }
  return { handle, unconfirmedSuccesses };
}
