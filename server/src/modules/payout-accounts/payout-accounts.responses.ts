import { PAYOUT_METHODS } from '@tukio/shared/internal-payouts';
import { z } from 'zod';
import { dateTimeString as dateTime } from '../../lib/response-shapes.js';

/** Response bodies of the payout-account routes, for the API document. */

const maskedDestination = z.object({
  method: z.enum(PAYOUT_METHODS),
  phone: z.string().optional().meta({ description: 'M-Pesa only, masked: `0712 ••• 678`.' }),
  shortcode: z.string().optional().meta({ description: 'Paybill or Till number.' }),
  accountReference: z.string().optional().meta({ description: 'Paybill only, all but its last 4 characters hidden.' }),
});

export const payoutAccount = z.object({
  active: maskedDestination.extend({ confirmedAt: dateTime }).nullable().meta({ description: 'Where payouts go now; null until a destination is confirmed.' }),
  heldUntil: dateTime.nullable().meta({ description: 'Payouts wait until then after a change of destination (24 h); null when nothing holds them.' }),
  pending: z
    .object({
      destination: maskedDestination,
      codeSentTo: z.string().meta({ description: 'The phone the code went to, masked.' }),
      expiresAt: dateTime,
      attemptsLeft: z.int(),
    })
    .nullable()
    .meta({ description: 'A change waiting for its SMS code; null when none (or its code expired).' }),
});
