import { payoutAttemptId, type PayoutDestination } from '@tukio/shared/internal-payouts';
import type { Database } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { createLedger } from '../ledger/index.js';
import { payableNow, type PayablePlan, type PayoutRules } from './payable-now.js';
import { createPayoutsRepository } from './payouts.repository.js';

/**
 * Where an organiser's payouts go: the payout-accounts module's answer (a port: that module is composed in
 * app.ts). Null when the organiser has no confirmed destination; `heldUntil` after a change (payouts wait).
 */
export interface PayoutDestinations {
  payoutDestination(organiserId: string, now: Date): Promise<{ destination: PayoutDestination; heldUntil: Date | null } | null>;
}

export interface MakePayoutsDeps {
  db: Database;
  destinations: PayoutDestinations;
  rules: PayoutRules;
}

/** Organisers read per page of the job's work list (every page is gone through each run). */
const ORGANISERS_PER_PAGE = 500;

/**
 * Makes payouts: for one organiser, in ONE database transaction, the payout row, its first attempt and its
 * `payout` ledger transaction, from what payableNow() says the ledger owes them. Exactly once across job runners
 * and instances: the organiser's row is locked first (a second runner waits, then finds the payout open and
 * makes nothing), and a partial unique index allows one open payout per organiser whatever happens.
 */
export function createMakePayouts(deps: MakePayoutsDeps) {
  const { db } = deps;

  /** What payableNow() says for the organiser, read with `repo` (inside the claim when making a payout). */
  async function planFor(repo: ReturnType<typeof createPayoutsRepository>, organiserId: string, earlyPayouts: boolean, destination: { heldUntil: Date | null } | null, now: Date) {
    const [money, blockedBy] = await Promise.all([repo.eventMoney(organiserId), repo.blocksNewPayout(organiserId)]);
    const plan = payableNow(money, { earlyPayouts, destination, blockedBy }, deps.rules, now);
    return { money, plan };
  }

  return {
    /** What the organiser would be paid now and why not more (the summary's view; nothing is written). */
    async preview(organiserId: string, now: Date) {
      const repo = createPayoutsRepository(db);
      const [earlyPayouts, destination] = await Promise.all([repo.earlyPayouts(organiserId), deps.destinations.payoutDestination(organiserId, now)]);
      return planFor(repo, organiserId, earlyPayouts, destination, now);
    },

    /** Makes the organiser's payout if one is due now; answers its id, or null (and why, in `plan.wait`). */
    async makeFor(organiserId: string, now: Date): Promise<{ payoutId: string | null; plan: PayablePlan }> {
      const found = await deps.destinations.payoutDestination(organiserId, now);
      try {
        return await db.transaction(async (tx) => {
          const repo = createPayoutsRepository(tx);
          const { earlyPayouts } = await repo.lockOrganiser(organiserId);
          const { plan } = await planFor(repo, organiserId, earlyPayouts, found, now);
          if (!plan.send || !found) return { payoutId: null, plan };
          const payoutId = newId();
          await repo.insertPayout({ id: payoutId, organiserId, amount: plan.send.amount, destination: found.destination, status: 'sending', attempts: 1, createdAt: now, updatedAt: now });
          await repo.insertAttempt({ id: newId(), payoutId, number: 1, originatorConversationId: payoutAttemptId(payoutId, 1), status: 'pending', createdAt: now });
          await createLedger(tx).payoutMade({ id: payoutId, legs: plan.send.legs });
          return { payoutId, plan };
        });
      } catch (error) {
        // Another runner's payout for this organiser got there first (the unique open payout): nothing more to make.
        if (isUniqueViolation(error)) return { payoutId: null, plan: (await this.preview(organiserId, now)).plan };
        throw error;
      }
    },

    /** Every organiser with unsettled money gets their payout when one is due; answers how many were made. */
    async makeDue(now: Date): Promise<number> {
      const repo = createPayoutsRepository(db);
      const startedBefore = new Date(now.getTime() - deps.rules.delayDays * 86_400_000);
      let made = 0;
      let after: string | null = null;
      for (;;) {
        const page = await repo.organisersWithMoney(after, ORGANISERS_PER_PAGE, startedBefore);
        for (const organiserId of page) {
          // A read first: only an organiser with something to send now takes the lock and a write transaction.
          if (!(await this.preview(organiserId, now)).plan.send) continue;
          if ((await this.makeFor(organiserId, now)).payoutId) made += 1;
        }
        if (page.length < ORGANISERS_PER_PAGE) return made;
        after = page.at(-1)!;
      }
    },
  };
}

export type MakePayouts = ReturnType<typeof createMakePayouts>;
