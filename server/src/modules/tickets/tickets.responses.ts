import { z } from 'zod';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the ticket routes, for the API document (the service's return values say the same in TypeScript). */


export const myTickets = z.array(
  z.object({
    _id: id,
    code: z.string().meta({ description: 'The signed ticket code the QR carries.' }),
    checkedInAt: dateTime.nullable(),
    createdAt: dateTime,
    orderId: id.nullable().meta({ description: 'Null for a free registration.' }),
    voidedAt: dateTime.nullable().meta({ description: 'Set when the ticket no longer admits anyone (its event was cancelled).' }),
    voidReason: z.enum(['event_cancelled']).nullable(),
    event: z.object({
      _id: id,
      title: z.string(),
      date: dateTime,
      location: z.string(),
      image: z.string().nullable(),
      isPaid: z.boolean(),
      ticketPrice: z.int().meta({ description: 'Whole shillings.' }),
    }),
  }),
);

export const publicKey = z.object({
  algorithm: z.literal('Ed25519'),
  pem: z.string(),
  jwk: z.object({ kty: z.string(), crv: z.string(), x: z.string() }),
  codeFormat: z.string(),
});

export const messageOnly = z.object({ message: z.string() });

export const checkedIn = z.object({ message: z.string(), ticket: z.object({ _id: id, userId: id, checkedInAt: dateTime }) });

export const attendees = z.array(
  z.object({
    ticketId: id,
    userId: id,
    username: z.string(),
    email: z.string(),
    orderId: id.nullable(),
    checkedInAt: dateTime.nullable(),
    issuedAt: dateTime,
  }),
);
