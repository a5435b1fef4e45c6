import { PAYOUT_METHODS, payoutDestinationSchema } from '@tukio/shared/internal-payouts';
import { normaliseKenyanPhone } from '@tukio/shared/phone';
import { z } from 'zod';

/** A Kenyan mobile number in any form people type (0712…, +254712…), stored as 254XXXXXXXXX. */
const kenyanPhone = (field: string) =>
  z
    .string({ error: `${field} is required.` })
    .transform((value, context) => {
      const phone = normaliseKenyanPhone(value);
      if (phone) return phone;
      context.addIssue({ code: 'custom', message: `${field} must be a Kenyan mobile number (07XXXXXXXX or 2547XXXXXXXX).` });
      return z.NEVER;
    });

/**
 * The destination as the organiser sends it: the shared shape (@tukio/shared/internal-payouts), with an
 * M-Pesa number accepted in any Kenyan form and an unknown method named in the message.
 */
const destination = z
  .object({ method: z.enum(PAYOUT_METHODS, { error: 'destination.method must be mpesa, paybill or till.' }) }, { error: 'destination is required.' })
  .loose()
  .transform((value) => (value.method === 'mpesa' && typeof value.phone === 'string' ? { ...value, phone: normaliseKenyanPhone(value.phone) ?? value.phone } : value))
  .pipe(payoutDestinationSchema);

export const requestBody = z
  .object({
    password: z.string({ error: 'password is required.' }).min(1, 'password is required.').max(200, 'password is too long.'),
    destination,
    /** Paybill and Till only: the phone the code goes to (an M-Pesa destination receives its own code). */
    codePhone: kenyanPhone('codePhone').optional(),
  })
  .superRefine((body, context) => {
    if (body.destination.method !== 'mpesa' && !body.codePhone) {
      context.addIssue({ code: 'custom', path: ['codePhone'], message: 'codePhone is required for a Paybill or Till: the confirmation code is sent there.' });
    }
  });

export const confirmBody = z.object({
  code: z.string({ error: 'code is required.' }).trim().regex(/^\d{6}$/, 'The code has 6 digits.'),
});
