import { z } from 'zod';
import { pageSchema } from '../../lib/keyset-page.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';

/** Response bodies of the ticket routes, for the API document (the service's return values say the same in TypeScript). */


const myTicket = z.object({
    _id: id,
    code: z.string().meta({ description: 'The signed ticket code the QR carries.' }),
    checkedInAt: dateTime.nullable(),
    createdAt: dateTime,
    orderId: id.nullable().meta({ description: 'Null for a free registration.' }),
    voidedAt: dateTime.nullable().meta({ description: 'Set when the ticket no longer admits anyone (its event was cancelled, its holder cancelled it, or it was transferred).' }),
    voidReason: z.enum(['event_cancelled', 'self_cancel', 'transferred', 'payment_reversed']).nullable(),
    transferredFrom: id.nullable().meta({ description: 'The ticket this one replaced when it was transferred to the caller.' }),
    pricePaid: z.int().meta({ description: 'Whole shillings paid for this ticket (0 for a free one): its own share of the payment, after any promo code.' }),
    paidByHolder: z
      .boolean()
      .meta({ description: 'Whether the caller paid for this ticket: false for a free one and for one received by transfer (its buyer paid, and gets any refund).' }),
    ticketType: z.object({ _id: id, name: z.string() }).nullable().meta({ description: 'The kind of ticket (e.g. VIP); null for tickets from before ticket types.' }),
    seriesDate: z.object({ _id: id, startsAt: dateTime }).nullable().optional().meta({ description: 'Only on an event series: the date this ticket admits on (null for a pass for every date).' }),
    allDates: z.boolean().optional().meta({ description: 'Only on an event series: a pass admitted once on each date.' }),
    selfCancel: z
      .object({ allowed: z.boolean(), reason: z.string().nullable(), refundPercent: z.int() })
      .meta({ description: 'Whether the holder may cancel this ticket now (`POST /api/tickets/cancel`), why not, and the percent of `pricePaid` refunded.' }),
    event: z.object({
      _id: id,
      title: z.string(),
      date: dateTime,
      location: z.string(),
      image: z.string().nullable(),
      isPaid: z.boolean(),
      ticketPrice: z.int().meta({ description: 'Whole shillings.' }),
      status: z.enum(['approved', 'pending', 'cancelled']),
      refundPolicy: z.object({ kind: z.enum(['none', 'full', 'partial']), percent: z.int().nullable(), untilHours: z.int() }),
    }),
  });

export const myTickets = z.array(myTicket);

export const myTicketPage = pageSchema(
  myTicket.extend({
    position: z
      .object({ index: z.int(), of: z.int() })
      .meta({ description: "The ticket's place among the caller's tickets for the same event (1-based), and how many those are, whatever page they are on." }),
  }),
);

export const transferred = z.object({
  message: z.string(),
  ticket: z.object({ _id: id, eventId: id }).meta({ description: "The recipient's new ticket (its code goes to the recipient only)." }),
  to: z.object({ _id: id, username: z.string() }),
});

export const publicKey = z.object({
  algorithm: z.literal('Ed25519'),
  pem: z.string(),
  jwk: z.object({ kty: z.string(), crv: z.string(), x: z.string() }),
  codeFormat: z.string(),
});

export const messageOnly = z.object({ message: z.string() });

export const checkedIn = z.object({ message: z.string(), ticket: z.object({ _id: id, userId: id, checkedInAt: dateTime }) });

/** A ticket's answers to the event's checkout questions: present only when the event asks any. */
const ticketAnswers = z
  .array(z.object({ questionId: id, label: z.string(), answer: z.string() }))
  .optional()
  .meta({ description: "The buyer's answers to the event's checkout questions for this ticket (per-order answers on each ticket of the order); only when the event asks questions." });

const attendee = z.object({
  ticketId: id,
  userId: id,
  username: z.string().meta({ description: 'A guest buyer (no account) reads "Guest 0722 ••• 111".' }),
  email: z.string().meta({ description: "A guest's is the one given at checkout, or empty." }),
  orderId: id.nullable(),
  checkedInAt: dateTime.nullable(),
  issuedAt: dateTime,
  guest: z
    .object({ phone: z.string().meta({ description: 'Masked: `0722 ••• 111`.' }), email: z.string().nullable() })
    .nullable()
    .meta({ description: 'Set for a guest buyer (bought without an account): the masked phone and the email given, if any.' }),
  answers: ticketAnswers,
});

export const attendees = z.array(attendee);

export const attendeePage = pageSchema(attendee).extend({ checkedIn: z.int().meta({ description: 'How many of the whole list are checked in.' }) });

const scanTime = dateTime.meta({ description: "On the server's clock: the device's time corrected by its measured clock offset." });

export const syncedScans = z.object({
  serverTime: dateTime,
  clockOffsetMs: z.number().meta({ description: "How far the device's clock was behind the server's (negative: ahead), from `sentAt`." }),
  results: z.array(
    z.object({
      ticketCode: z.string(),
      scannedAt: z.string().meta({ description: 'As the device sent it.' }),
      device: z.string(),
      status: z.enum(['accepted', 'duplicate', 'void', 'invalid']),
      ticketId: id.optional(),
      checkedInAt: scanTime.optional().meta({ description: '`accepted`: when this scan admitted the ticket.' }),
      first: z.object({ device: z.string().nullable(), scannedAt: scanTime }).optional().meta({ description: '`duplicate`: the scan that admitted the ticket first.' }),
      voidReason: z.enum(['event_cancelled', 'self_cancel', 'transferred', 'payment_reversed']).optional(),
      voidedAt: dateTime.optional(),
      message: z.string().optional(),
    }),
  ),
});

export const gateList = z.object({
  eventId: id,
  generatedAt: dateTime,
  publicKey: z.object({ algorithm: z.literal('Ed25519'), jwk: z.object({ kty: z.string(), crv: z.string(), x: z.string() }) }),
  tickets: z.array(
    z.object({
      ticketId: id,
      userId: id,
      username: z.string(),
      email: z.string(),
      orderId: id.nullable(),
      issuedAt: dateTime,
      checkedInAt: dateTime.nullable(),
      checkedInDevice: z.string().nullable(),
      voidedAt: dateTime.nullable(),
      voidReason: z.enum(['event_cancelled', 'self_cancel', 'transferred', 'payment_reversed']).nullable(),
      dateId: id.nullable().optional().meta({ description: 'Only on an event series: the date the ticket admits on (null: a pass for every date).' }),
      dateCheckins: z
        .array(z.object({ dateId: id, checkedInAt: dateTime, device: z.string().nullable() }))
        .optional()
        .meta({ description: 'Only on an event series: the dates the ticket was admitted on (a pass once on each), so a device refuses a second admission on the same date offline.' }),
      answers: ticketAnswers,
    }),
  ),
  flagged: z
    .array(
      z.object({
        ticketId: id,
        username: z.string(),
        device: z.string().nullable(),
        scannedAt: scanTime,
        first: z.object({ device: z.string().nullable(), scannedAt: scanTime }),
        dateId: id.nullable().optional().meta({ description: 'Only on an event series: the date the scan was for (a ticket is admitted once on each date).' }),
      }),
    )
    .meta({ description: 'Scans of tickets another scan admitted earlier.' }),
});
