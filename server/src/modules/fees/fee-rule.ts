/**
 * The platform fee's arithmetic (docs/decisions/fees.md): pure, so the quote, the hold and the unit tests agree.
 */

import { FEE_MODES } from '../events/index.js';

export { FEE_MODES };
/** Who pays the fee: the buyer beside the ticket price (`on_top`), or the organiser out of it (`absorbed`). */
export type FeeMode = (typeof FEE_MODES)[number];

/** A fee per paid ticket: `percentBp` hundredths of a percent of its price (500 = 5 %), plus `fixed`, at least `minimum` (whole shillings). */
export interface FeeRule {
  percentBp: number;
  fixed: number;
  minimum: number;
}

export const NO_FEE: FeeRule = { percentBp: 0, fixed: 0, minimum: 0 };

/**
 * The fee on `quantity` tickets of one line that sell for `net` whole shillings together (after any promo code).
 * Free tickets (nothing paid for them) carry no fee. The percentage is taken of the line's total and rounded to the
 * nearest shilling, halves up (integer arithmetic, so no floating-point drift): one rounding per line, not per
 * ticket, so ten Ksh 105 tickets at 5 % pay 53, not 10 × 5. The fixed part and the minimum count per ticket.
 */
export function lineFee(rule: FeeRule, net: number, quantity: number): number {
  if (quantity <= 0 || net <= 0) return 0;
  const percentPart = Math.floor((net * rule.percentBp + 5000) / 10000);
  return Math.max(percentPart + rule.fixed * quantity, rule.minimum * quantity);
}

/** Basis points from a percent with at most two decimals (5.25 → 525), exactly: the API speaks percent. */
export const basisPoints = (percent: number) => Math.round(percent * 100);
export const percentOf = (percentBp: number) => percentBp / 100;
