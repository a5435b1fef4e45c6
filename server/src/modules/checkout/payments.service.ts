import type { Database } from '../../db/database.js';
import type { Logger } from '../../lib/logger.js';
import type { Metrics } from '../../lib/metrics.js';
import type { SmsService } from '../sms/index.js';
import type { SoldOutNotes, TicketsService } from '../tickets/index.js';
import { createExpireHoldsHandler } from './expire-holds.handler.js';
import type { GuestTicketLinks } from './guest-ticket-links.js';
import { createHoldOrderHandler } from './hold-order.handler.js';
import { createPaymentHistory } from './payment-history.service.js';
import { createQuoteOrderHandler } from './quote-order.handler.js';
import { createRecordPushHandler } from './record-push.handler.js';
import { createReleaseOrderHandler } from './release-order.handler.js';
import type { MpesaTariff } from '../fees/index.js';
import { createSettlePaymentHandler } from './settle-payment.handler.js';
import { createPaybillHandler } from './paybill.handler.js';
import type { SettleRequest } from '@tukio/shared/internal-api';

export type { HoldOrderInput as CreateOrderInput } from './hold-order.handler.js';
export type { SettleResult } from './settle-payment.handler.js';

export interface PaymentsServiceDeps {
  db: Database;
  tickets: TicketsService;
  logger: Logger;
  holdMinutes: number;
  /** M-Pesa's charges (docs/decisions/fees.md): settlement records the receiving charge of each payment. */
  mpesaTariff?: MpesaTariff | undefined;
  metrics?: Pick<Metrics, 'settlements'> | undefined;
  /** Why a sold-out refusal happened when the buyer's waitlist offer expired. */
  waitlist?: SoldOutNotes | undefined;
  guests?: { links: GuestTicketLinks; sms: Pick<SmsService, 'enqueue'> } | undefined;
  /** A Paybill number is offered (docs/decisions/paybill.md): a failed or dismissed prompt keeps its seats held until the hold's expiry. */
  paybillOffered?: boolean | undefined;
}

/**
 * The checkout's use cases, one handler each (docs/payments.md): quote, hold seats, record the push, release a
 * refused hold, settle a result, expire holds for the reconciler; and what buyers read about their payments.
 */
export function createPaymentsService(deps: PaymentsServiceDeps) {
  const expireHolds = createExpireHoldsHandler(deps);
  const history = createPaymentHistory({ db: deps.db, guestLinks: deps.guests?.links });
  const settle = createSettlePaymentHandler(deps);
  return {
    quote: createQuoteOrderHandler(deps).handle,
    createOrder: createHoldOrderHandler(deps).handle,
    recordPush: createRecordPushHandler(deps).handle,
    abandonOrder: createReleaseOrderHandler(deps).handle,
    settle: (input: SettleRequest) => settle.handle(input),
    /** After the commit of each result actually recorded: the buyer's dialog is told at once (payment-updates.socket.ts). */
    onSettled: settle.onSettled,
    /** Paybill payments (docs/decisions/paybill.md): validation, and confirmations settled by the same settle path. */
    paybill: createPaybillHandler({ db: deps.db, settle, logger: deps.logger }),
    pendingPushes: expireHolds.handle,
    unconfirmedSuccesses: expireHolds.unconfirmedSuccesses,
    ...history,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
