import { z } from 'zod';
import { dateTimeString as dateTime } from '../../lib/response-shapes.js';

export const tokenParams = z.object({ token: z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/).meta({ description: 'The token from the emailed link.' }) });

export const exportStatus = z.object({
  state: z.enum(['none', 'requested', 'ready', 'downloaded', 'expired']).meta({
    description: 'none (never asked); requested (being made); ready (link emailed, works until `expiresAt`); downloaded (link used); expired (not downloaded in time).',
  }),
  requestedAt: dateTime.nullable(),
  expiresAt: dateTime.nullable(),
  nextRequestAt: dateTime.nullable().meta({ description: 'From when a new request is accepted; null: now.' }),
});
