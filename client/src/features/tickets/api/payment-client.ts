/*
 * The payment service (docs/payments.md, "Browser-facing API"): same-origin under /pay (the API
 * server forwards it) or its own host (VITE_PAYMENT_URL), so a second instance of the app's HTTP
 * client (lib/api-client), with the same bearer token. The browser never decides the price or the
 * outcome: the server prices the order and reports what M-Pesa answered.
 */
import { env } from '../../../config/env';
import { createHttpClient } from '../../../lib/api-client';
import type { AnswerInput } from '@tukio/shared/checkout-questions';
import type { OrderItem } from './order-api';

// confirmPayment may ask Daraja directly (STK query) before answering, hence the longer timeout.
export const paymentApi = createHttpClient({ baseURL: env.paymentApiUrl, timeout: 40_000, endSessionOn401: false });

export interface StkPushInput {
  eventId: string;
  /** `254` + 9 digits. */
  phone: string;
  quantity: number;
  /** Seats per ticket type; absent buys `quantity` of the event's cheapest type on sale. */
  items?: OrderItem[];
  /** Applied by the server, which refuses a bad one naming the `promoCode` field. */
  promoCode?: string;
  /** On an event series: the date picked. */
  dateId?: string;
  /** Shown to nobody: the server charges its own price for the order whatever is sent here. */
  amount: number;
  /** A guest's (signed out) optional email: the tickets are mailed there as well as sent by SMS. */
  email?: string;
  /** Answers to the event's checkout questions (docs/decisions/checkout-questions.md); absent when none were asked. */
  answers?: AnswerInput[];
  /** Pay the deposit now, the rest by the plan's due date (docs/decisions/instalments.md). */
  instalments?: boolean;
}

export interface StkPushResult {
  ResponseCode: string;
  CheckoutRequestID: string;
  MerchantRequestID?: string;
  CustomerMessage?: string;
  /** What the phone will be asked for. */
  amount?: number;
  quantity?: number;
  holdExpiresAt?: string;
  /** Only with the offline Daraja simulator: this prompt's own simulated phone page. */
  simulatorUrl?: string;
  /** Paying from the M-Pesa menu instead (docs/decisions/paybill.md): the Paybill number, the order code as the account. */
  paybill?: PaybillDetails;
  /** The deposit was asked for (`amount`); the rest of `orderAmount` is due by `dueAt`. */
  instalments?: { deposit: number; dueAt: string; cancellationFee: number; orderAmount: number };
}

export interface PaybillDetails {
  shortcode: string;
  account: string;
  amount: number;
  holdExpiresAt: string;
}

/** POST /api/stkPush (same-origin: /pay/stkPush) {phone, amount, Order_ID, quantity, items?, promoCode?}. */
export async function stkPush(input: StkPushInput): Promise<StkPushResult> {
  const { data } = await paymentApi.post<StkPushResult>('/stkPush', {
    phone: input.phone,
    amount: input.amount,
    Order_ID: `${input.eventId}_${input.phone}`,
    quantity: input.quantity,
    ...(input.items ? { items: input.items } : {}),
    ...(input.promoCode ? { promoCode: input.promoCode } : {}),
    ...(input.dateId ? { dateId: input.dateId } : {}),
    ...(input.email ? { email: input.email } : {}),
    ...(input.answers ? { answers: input.answers } : {}),
    ...(input.instalments ? { instalments: true } : {}),
  });
  return data;
}

export type PaymentStatus = 'pending' | 'success' | 'failed' | 'cancelled';

export interface ConfirmResult {
  /** True only when the payment succeeded and the tickets were issued. */
  success: boolean;
  resultDesc?: string;
  resultdDesc?: string;
  /** M-Pesa's ResultCode once the prompt finished: said in the buyer's language when it is a common one. */
  resultCode?: number;
  status: PaymentStatus;
  orderStatus?: 'pending' | 'paid' | 'failed' | 'cancelled' | 'expired' | 'refund_due' | 'reserved' | 'lapsed';
  CheckoutRequestID?: string;
  eventId?: string;
  amount?: number;
  quantity?: number;
  mpesaReceiptNumber?: string | null;
  /** A paid guest checkout: its ticket page is /t/<ticketToken> (the link the SMS carries). */
  ticketToken?: string;
}

/** POST /api/confirmPayment (same-origin: /pay/confirmPayment) {CheckoutRequestID}: where the payment stands now. */
export async function confirmPayment(checkoutRequestId: string, signal?: AbortSignal): Promise<ConfirmResult> {
  const { data } = await paymentApi.post<ConfirmResult>('/confirmPayment', { CheckoutRequestID: checkoutRequestId }, { signal });
  return data;
}
