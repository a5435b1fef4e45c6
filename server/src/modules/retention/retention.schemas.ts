import { z } from 'zod';
import { dateTimeString as dateTime } from '../../lib/response-shapes.js';
import { idParam, text } from '../../lib/validate.js';

export const eventParams = z.object({ id: idParam('Event id') });
/** Kept with the record and logged: an early erasure must say why. */
export const shredBody = z.object({ reason: text('reason', 500, 3) });

export const shredded = z.object({
  eventId: z.string(),
  shreddedAt: dateTime,
  rowsErased: z.number().int().meta({ description: 'Rows that had a personal column erased.' }),
  reason: z.string(),
});

const processor = z.object({
  id: z.enum(['safaricom', 'africas-talking', 'mail-provider']),
  name: z.string(),
  purpose: z.enum(['payments', 'sms', 'email']),
  receives: z.array(z.enum(['phone', 'amount', 'sms-text', 'email', 'email-text'])),
});

export const privacySettings = z.object({
  retentionDays: z.number().int().meta({ description: "Days after an event ends before its buyers' phone numbers, guest emails and gate device names are erased." }),
  dataExportLinkHours: z.number().int().meta({ description: 'How long the emailed "Download my data" link works (once).' }),
  dataExportIntervalHours: z.number().int().meta({ description: 'How often a copy of your data may be asked for.' }),
  deletionGraceDays: z.number().int().meta({ description: 'Days a deleted account can still be restored before it is erased.' }),
  mailKeepDays: z.number().int().meta({ description: 'Days a sent email stays in the outbox.' }),
  processors: z.array(processor).meta({ description: 'Who receives personal data to do a job for Tukio, and what.' }),
});
export type PrivacySettings = z.infer<typeof privacySettings>;
