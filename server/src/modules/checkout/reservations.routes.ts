import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { dateTimeString as dateTime, idString as id } from '../../lib/response-shapes.js';
import { idParam } from '../../lib/validate.js';
import type { Instalments } from './instalments.service.js';

export const reservationParams = z.object({ orderId: idParam('Order id') });

/** A part of the balance: whole shillings from 1 (at most the balance, checked with the reservation); absent: all of it. */
export const payTowardsBody = z.object({
  amount: z.coerce.number({ error: 'Amount must be a number.' }).int('Amount must be whole shillings.').min(1, 'Pay at least 1 shilling.').max(250_000, 'M-Pesa takes at most 250,000 shillings at a time.').optional(),
  phone: z.string().max(20).optional(),
});

const reservationView = z.object({
  orderId: id,
  eventId: id,
  eventTitle: z.string(),
  eventStartsAt: dateTime,
  ticketTypeName: z.string().nullable(),
  quantity: z.int(),
  status: z.enum(['reserved', 'paid', 'lapsed', 'pending', 'failed', 'cancelled', 'expired', 'refund_due']).meta({ description: '`reserved` while a balance is owed; `paid` once it is all paid (tickets issued); `lapsed` when the due date passed.' }),
  amount: z.int().meta({ description: 'The whole order, in shillings.' }),
  paid: z.int().meta({ description: 'Put towards it so far.' }),
  balance: z.int().meta({ description: 'Still owed (0 unless reserved).' }),
  deposit: z.int(),
  dueAt: dateTime.nullable().meta({ description: 'When the balance is due (a real instant).' }),
  cancellationFee: z.int(),
  refundIfLapsed: z.int(),
  keptIfLapsed: z.int(),
  orderCode: z.string().nullable().meta({ description: 'The account number for paying by Paybill.' }),
  paybill: z.string().nullable().meta({ description: 'The business number for paying by Paybill.' }),
  phone: z.string().nullable(),
});

const payTowardsView = z.object({
  CheckoutRequestID: z.string(),
  CustomerMessage: z.string().optional(),
  amount: z.int(),
  balance: z.int().meta({ description: 'What was owed before this payment.' }),
  simulatorPromptPath: z.string().optional(),
});

/** /api/reservations: a buyer's instalment plans (docs/decisions/instalments.md). */
export function createReservationsRouter(deps: { instalments: Instalments }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payments');

  routes.get(
    '/',
    {
      summary: 'My reservations: orders paid in instalments, with what is paid, what is left and when it is due',
      access: 'user',
      responses: { 200: { description: 'Open reservations by due date, then those paid or lapsed in the last 30 days.', schema: z.array(reservationView) } },
    },
    ({ user }) => deps.instalments.mine(user),
  );

  routes.post(
    '/:orderId/pay',
    {
      summary: 'Pay towards my reservation by M-Pesa prompt',
      access: 'user',
      description: 'Sends an M-Pesa prompt for `amount` (1 up to the balance; absent: the balance) to `phone` (absent: the deposit\'s phone). Poll POST /pay/confirmPayment with the CheckoutRequestID.',
      params: reservationParams,
      body: payTowardsBody,
      responses: {
        200: { description: 'Prompt sent.', schema: payTowardsView },
        400: 'Not a valid amount or phone, or more than the balance.',
        404: 'No such reservation of yours.',
        409: 'The reservation was paid in full or lapsed.',
        502: 'M-Pesa refused, or the prompt may have been sent.',
        503: 'Try again in a moment.',
      },
    },
    ({ params, body, user }) => deps.instalments.payTowards(user, params.orderId, body),
  );

  return router;
}
