/**
 * An event's refund policy and the one rule for when a holder may cancel their own tickets and what comes
 * back: the API server enforces it (self-cancel answers 409 with the same reason) and the client shows it
 * (the disabled button says why, the dialog shows the amount) from the same code. Browser-safe: no imports.
 *
 * Times are compared as milliseconds from now until the event's start, both on the events' wall clock;
 * each side computes that with its own event clock.
 */

export const REFUND_POLICY_KINDS = ['none', 'full', 'partial'] as const;
export type RefundPolicyKind = (typeof REFUND_POLICY_KINDS)[number];

/** A partial refund gives back 1 to 99 percent of the ticket price (100 is a full refund). */
export const REFUND_PERCENT_MIN = 1;
export const REFUND_PERCENT_MAX = 99;
/** Refunds may be allowed until at most 30 days before the start. */
export const REFUND_UNTIL_HOURS_MAX = 720;

export interface RefundPolicy {
  kind: RefundPolicyKind;
  /** Percent of the price given back: only for `partial` (null otherwise). */
  percent: number | null;
  /** Cancelling with a refund is allowed until this many hours before the start (0: until the start). */
  untilHours: number;
}

/** Every event without a policy of its own, and every event created before policies existed. */
export const NO_REFUNDS: RefundPolicy = { kind: 'none', percent: null, untilHours: 0 };

const HOUR_MS = 60 * 60 * 1000;

/** Percent of the price a cancellation within the policy gives back. */
export function refundPercent(policy: RefundPolicy): number {
  if (policy.kind === 'full') return 100;
  if (policy.kind === 'partial') return policy.percent ?? 0;
  return 0;
}

export const selfCancelMessages = {
  started: 'This event has already started, so its tickets can no longer be cancelled.',
  noRefunds: 'The organiser gives no refunds for this event, so paid tickets cannot be cancelled.',
  tooLate: (untilHours: number) =>
    `Refunds for this event end ${untilHours} hour${untilHours === 1 ? '' : 's'} before the start, so paid tickets can no longer be cancelled.`,
} as const;

/** A refusal's `reason` in English, with its error code (@tukio/shared/error-codes) and the reason's variable parts. */
export type SelfCancelTerms =
  | { allowed: true; percent: number }
  | { allowed: false; reason: string; code: 'self_cancel_started' | 'self_cancel_no_refunds' | 'self_cancel_too_late'; params?: { hours: number } };

/**
 * Whether a holder may cancel their tickets now, and the percent refunded. Free tickets can always be
 * released before the start; paid ones only within the policy (a refund is then always due).
 */
export function selfCancelTerms(policy: RefundPolicy, input: { msUntilStart: number; paid: boolean }): SelfCancelTerms {
  if (input.msUntilStart < 0) return { allowed: false, reason: selfCancelMessages.started, code: 'self_cancel_started' };
  if (!input.paid) return { allowed: true, percent: 0 };
  if (policy.kind === 'none') return { allowed: false, reason: selfCancelMessages.noRefunds, code: 'self_cancel_no_refunds' };
  if (input.msUntilStart < policy.untilHours * HOUR_MS) {
    return { allowed: false, reason: selfCancelMessages.tooLate(policy.untilHours), code: 'self_cancel_too_late', params: { hours: policy.untilHours } };
  }
  return { allowed: true, percent: refundPercent(policy) };
}

/** Whole shillings back for `count` tickets of `unitPrice` at `percent`: rounded down, never more than paid. */
export function selfCancelRefund(unitPrice: number, count: number, percent: number): number {
  return Math.floor((unitPrice * count * percent) / 100);
}
