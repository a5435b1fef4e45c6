import { payoutResultAnswer } from '@tukio/shared/internal-payouts';
import { z } from 'zod';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';
import { PAYOUT_STATUSES } from './payouts.schema.js';

/** Response bodies of the payout routes, for the API document (the service's return values say the same in TypeScript). */

export { payoutResultAnswer as resultRecorded };

const shillings = z.int();
const payoutStatus = z.enum(PAYOUT_STATUSES);
const waitingFor = z
  .enum(['nothing_payable', 'below_minimum', 'no_destination', 'destination_held', 'payout_open', 'payout_failed'])
  .nullable()
  .meta({ description: 'Why no payout is made now (null: one is due).' });

export const payoutSummary = z.object({
  currency: z.literal('KES'),
  pending: shillings.meta({ description: 'Owed, not payable yet (PAYOUT_DELAY_DAYS after the event ends).' }),
  available: shillings.meta({ description: 'Payable now (the next payout, less any negative balance).' }),
  onHold: shillings.meta({ description: "Held by an administrator, or a cancelled event's until its refunds are all paid." }),
  inFlight: shillings.meta({ description: 'Payouts on their way to M-Pesa.' }),
  paid: shillings,
  negativeBalance: shillings.meta({ description: 'Owed back to Tukio (refunds after a payout): the next payout recovers it.' }),
  nextPayout: z.object({ amount: shillings }).nullable(),
  waitingFor,
  events: z.array(
    z.object({
      eventId: id,
      title: z.string(),
      startsAt: dateTime,
      status: z.enum(['available', 'early', 'pending', 'on_hold', 'awaiting_refunds', 'negative', 'settled']),
      owed: shillings,
      available: shillings,
      pending: shillings,
      onHold: shillings,
      negative: shillings,
      paidOut: shillings,
      payableFrom: dateTime,
    }),
  ),
});

export const eventStatement = z.object({
  eventId: id,
  title: z.string(),
  currency: z.literal('KES'),
  grossSales: shillings,
  fees: shillings.meta({ description: "Tukio's platform fee on the event's sales." }),
  mpesaCharges: shillings.meta({ description: "M-Pesa's charges for receiving the event's payments: borne by Tukio, not deducted from the net." }),
  refunds: shillings.meta({ description: "Refunds charged to the organiser (a refund's fee share comes back out of Tukio's fees)." }),
  adjustments: shillings,
  net: shillings.meta({ description: 'Gross sales − fees − refunds + adjustments: what the event earned its organiser.' }),
  paidOut: shillings,
  balance: shillings.meta({ description: 'Still owed (negative: owed back to Tukio).' }),
  payouts: z.array(
    z.object({
      payoutId: id,
      forEvent: shillings.meta({ description: "This event's part of the payout (negative: a balance it recovered)." }),
      amount: shillings,
      status: payoutStatus,
      receipt: z.string().nullable().meta({ description: "M-Pesa's TransactionID once paid." }),
      createdAt: dateTime,
      paidAt: dateTime.nullable(),
    }),
  ),
});

export const adminPayouts = z.array(
  z.object({
    payoutId: id,
    organiserId: id,
    username: z.string(),
    earlyPayouts: z.boolean().meta({ description: 'Whether the organiser is trusted with early payouts.' }),
    amount: shillings,
    method: z.string(),
    status: payoutStatus,
    attempts: z.int(),
    nextAttemptAt: dateTime.nullable(),
    receipt: z.string().nullable(),
    failure: z.string().nullable(),
    needsAttention: z.string().nullable().meta({ description: 'A result refused for good (the payment service parked it): a person must compare it with M-Pesa.' }),
    lastResultCode: z.string().nullable(),
    retriedAt: dateTime.nullable(),
    createdAt: dateTime,
    paidAt: dateTime.nullable(),
  }),
);

export const retried = z.object({ payoutId: id, retriedAt: dateTime, newPayoutId: id.nullable(), waitingFor });
export const held = z.object({ eventId: id, held: z.boolean(), reason: z.string(), heldAt: dateTime });
export const activeHolds = z.array(z.object({ eventId: id, title: z.string(), organiser: z.string(), reason: z.string(), heldAt: dateTime }));
export const earlyPayouts = z.object({ userId: id, earlyPayouts: z.boolean() });
