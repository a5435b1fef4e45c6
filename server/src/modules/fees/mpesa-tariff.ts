import { MPESA_TRANSACTION_MAX } from '@tukio/shared/limits';
import { z } from 'zod';

/**
 * What M-Pesa charges the business for moving money (docs/decisions/fees.md, "M-Pesa charges"): a table of bands
 * per kind of transaction, set by MPESA_TARIFF (validated at start) so the operator pastes the tariff of their own
 * shortcode's contract. `receive` is a customer's payment to the shortcode (STK push), `b2c` a payment to a phone
 * (refunds, payouts to organisers), `b2b` a payment to another shortcode (payouts to a paybill or till).
 */
export const MPESA_CHARGE_KINDS = ['receive', 'b2c', 'b2b'] as const;
export type MpesaChargeKind = (typeof MPESA_CHARGE_KINDS)[number];

/** Bands as `[upTo, charge]`: an amount up to `upTo` shillings (inclusive, above the previous band's) costs `charge`. */
export type MpesaTariff = Record<MpesaChargeKind, Array<readonly [upTo: number, charge: number]>>;

/**
 * The default: an EXAMPLE shaped like Safaricom's published business tariffs (whole-shilling bands up to the
 * Ksh 250,000 a transaction may move), not a copy of any current table: Safaricom changes its tariffs and each
 * contract has its own. Set MPESA_TARIFF to your shortcode's real table before relying on the charges' totals.
 */
export const DEFAULT_MPESA_TARIFF: MpesaTariff = {
  receive: [
    [100, 0],
    [500, 5],
    [1000, 10],
    [1500, 15],
    [2500, 20],
    [3500, 25],
    [5000, 34],
    [7500, 42],
    [10000, 48],
    [15000, 57],
    [20000, 62],
    [35000, 67],
    [50000, 72],
    [MPESA_TRANSACTION_MAX, 77],
  ],
  b2c: [
    [100, 0],
    [1500, 5],
    [5000, 9],
    [MPESA_TRANSACTION_MAX, 11],
  ],
  b2b: [
    [1000, 10],
    [10000, 25],
    [MPESA_TRANSACTION_MAX, 50],
  ],
};

/** No charges at all (MPESA_TARIFF=none): a shortcode on a contract that passes every charge to the customer. */
export const NO_MPESA_CHARGES: MpesaTariff = { receive: [[MPESA_TRANSACTION_MAX, 0]], b2c: [[MPESA_TRANSACTION_MAX, 0]], b2b: [[MPESA_TRANSACTION_MAX, 0]] };

const shillings = z.int().min(0);
const bands = z
  .array(z.tuple([shillings.min(1), shillings]), { error: 'each kind is a list of [upTo, charge] bands of whole shillings' })
  .min(1)
  .refine((rows) => rows.every((row, i) => i === 0 || row[0] > rows[i - 1]![0]), 'bands must go up: each upTo above the one before')
  .refine((rows) => rows.at(-1)![0] >= MPESA_TRANSACTION_MAX, `the last band must reach ${MPESA_TRANSACTION_MAX} (the most one transaction moves)`);
const tariffSchema = z.object({ receive: bands, b2c: bands, b2b: bands }).strict();

/** MPESA_TARIFF: unset for the example default, `none` for no charges, or JSON `{"receive": [[upTo, charge], …], "b2c": […], "b2b": […]}`. */
export function parseMpesaTariff(value: string | undefined): MpesaTariff {
  if (value === undefined || value.trim() === '') return DEFAULT_MPESA_TARIFF;
  if (value.trim() === 'none') return NO_MPESA_CHARGES;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error('MPESA_TARIFF must be `none` or JSON: {"receive": [[upTo, charge], …], "b2c": […], "b2b": […]}');
  }
  const parsed = tariffSchema.safeParse(json);
  if (!parsed.success) throw new Error(`MPESA_TARIFF: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
  return parsed.data;
}

/** What M-Pesa charges the business to move `amount` whole shillings of this kind, under `tariff`. */
export function mpesaCharge(kind: MpesaChargeKind, amount: number, tariff: MpesaTariff = DEFAULT_MPESA_TARIFF): number {
  const rows = tariff[kind];
  return (rows.find(([upTo]) => amount <= upTo) ?? rows.at(-1)!)[1];
}
