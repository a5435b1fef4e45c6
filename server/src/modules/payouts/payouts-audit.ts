import type { auditRequest } from '@tukio/shared/internal-refunds';
import type { z } from 'zod';
import type { Database } from '../../db/database.js';
import { createPayoutsRepository } from './payouts.repository.js';

/** An organiser payout M-Pesa reports as completed (the audit request's `payouts`). */
export type ProviderPayout = z.output<typeof auditRequest>['payouts'][number];

export interface PayoutFinding {
  kind: string;
  detail: string;
}

/** Provider amounts may carry decimals ("10.00"); payouts are whole shillings. */
const sameAmount = (provider: number, shillings: number) => Math.round(provider * 100) === shillings * 100;

/** How the provider names a payout: B2C by our OriginatorConversationID, B2B by Daraja's ConversationID. */
const providerName = (payout: ProviderPayout) => (payout.kind === 'b2c' ? payout.originatorConversationId : (payout.conversationId ?? `no ConversationID, ${payout.originatorConversationId}`));

/**
 * The payouts part of POST /api/internal/audit (docs/decisions/payouts.md, "Audit"): M-Pesa's organiser
 * payouts against the attempts it paid here.
 * - Each provider payout is one paid attempt (a B2C by our OriginatorConversationID, a B2B by the ConversationID
 *   kept from Daraja's accepted answer) with the same TransactionID (`payout-receipt`) and its payout's amount
 *   (`payout-amount`); reported twice is `payout-duplicated`.
 * - A provider payout whose attempt has no recorded result yet (a result the payment service could not deliver,
 *   such as a parked one) is `payout-not-recorded`; one no attempt names is `payout-unknown`.
 * - A paid attempt the provider does not report is `payout-missing-at-provider`; a paid attempt whose payout is
 *   paid by another receipt, or was given up, is `payout-paid-twice` (money left twice, or after its ledger
 *   legs went back to the organiser).
 */
export async function auditPayouts(db: Database, reported: ProviderPayout[]): Promise<PayoutFinding[]> {
  const repo = createPayoutsRepository(db);
  const found: PayoutFinding[] = [];
  const flag = (kind: string, detail: string) => found.push({ kind, detail });

  const paid = await repo.paidAttempts();
  const byOriginator = new Map(paid.map((row) => [row.attempt.originatorConversationId, row]));
  const byConversation = new Map(paid.flatMap((row) => (row.attempt.conversationId ? [[row.attempt.conversationId, row] as const] : [])));
  const matched = new Set<string>();
  const seen = new Set<string>();
  const unmatched: ProviderPayout[] = [];
  for (const payout of reported) {
    const name = `payout ${payout.transactionId} (${payout.kind}, ${providerName(payout)})`;
    if (seen.has(payout.transactionId)) {
      flag('payout-duplicated', `${name} is reported twice by the provider`);
      continue;
    }
    seen.add(payout.transactionId);
    const row = payout.kind === 'b2c' ? byOriginator.get(payout.originatorConversationId) : payout.conversationId ? byConversation.get(payout.conversationId) : undefined;
    if (!row) {
      unmatched.push(payout);
      continue;
    }
    if (matched.has(row.attempt.id)) {
      flag('payout-duplicated', `${name}: attempt ${row.attempt.originatorConversationId} is already another provider payout`);
      continue;
    }
    matched.add(row.attempt.id);
    if (row.attempt.transactionId !== payout.transactionId) flag('payout-receipt', `${name}: attempt ${row.attempt.originatorConversationId} was recorded paid as ${row.attempt.transactionId}`);
    if (!sameAmount(payout.amount, row.amount)) flag('payout-amount', `${name}: the provider paid ${payout.amount}, payout ${row.attempt.payoutId} is ${row.amount}`);
  }

  const attempts = await repo.attemptsNamed(
    unmatched.filter((payout) => payout.kind === 'b2c').map((payout) => payout.originatorConversationId),
    unmatched.flatMap((payout) => (payout.kind === 'b2b' && payout.conversationId ? [payout.conversationId] : [])),
  );
  for (const payout of unmatched) {
    const name = `payout ${payout.transactionId} (${payout.kind}, ${providerName(payout)})`;
    const attempt = attempts.find((row) => (payout.kind === 'b2c' ? row.originatorConversationId === payout.originatorConversationId : row.conversationId === payout.conversationId));
    if (attempt) flag('payout-not-recorded', `${name} of ${payout.amount}: attempt ${attempt.originatorConversationId} of payout ${attempt.payoutId} is ${attempt.status} here (its paid result was not recorded)`);
    else flag('payout-unknown', `the provider paid ${payout.amount} as ${name}, which no payout records`);
  }

  for (const row of paid) {
    const { attempt } = row;
    if (!matched.has(attempt.id)) flag('payout-missing-at-provider', `payout ${attempt.payoutId}: attempt ${attempt.originatorConversationId} was paid as ${attempt.transactionId}, which the provider does not report`);
    if (row.payoutReceipt !== attempt.transactionId) {
      const payoutState = row.payoutStatus === 'paid' ? `paid as ${row.payoutReceipt}` : row.payoutStatus;
      flag('payout-paid-twice', `payout ${attempt.payoutId} is ${payoutState}, but attempt ${attempt.originatorConversationId} was paid too, as ${attempt.transactionId}`);
    }
  }
  return found;
}
