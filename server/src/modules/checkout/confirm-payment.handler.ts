import type { PaymentView } from '@tukio/shared/internal-api';
import { AppError, type ErrorCode } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';
import type { PaymentGateway } from './payment-gateway.js';
import type { PaymentsService } from './payments.service.js';

/** A confirmPayment failure: like every confirm answer it says `success: false`. */
export const confirmFailed = (status: number, code: ErrorCode, message: string) => new AppError(status, code, message, { body: { success: false } });

/** The confirmPayment answer for a payment (`resultdDesc`: the misspelling older clients read). */
function confirmAnswer(view: PaymentView) {
  return {
    success: view.success,
    resultDesc: view.resultDesc,
    resultdDesc: view.resultDesc,
    // M-Pesa's code, so the dialog can say the outcome in the buyer's language (resultDesc is English).
    ...(view.resultCode != null ? { resultCode: view.resultCode } : {}),
    status: view.status,
    orderStatus: view.orderStatus,
    CheckoutRequestID: view.checkoutRequestId,
    eventId: view.eventId,
    amount: view.amount,
    quantity: view.quantity,
    mpesaReceiptNumber: view.mpesaReceiptNumber,
    // A paid guest checkout: its ticket page, `/t/<ticketToken>`.
    ...(view.ticketToken ? { ticketToken: view.ticketToken } : {}),
  };
}

/**
 * Where a buyer's payment stands (the dialog polls this). Read from the database; a push still pending after
 * `queryAfterSeconds` is asked about at M-Pesa (its callback may be late or lost) and read again.
 */
export function createConfirmPaymentHandler(deps: { payments: PaymentsService; gateway: PaymentGateway; logger: Logger; queryAfterSeconds: number }) {
  async function read(userId: string | undefined, checkoutRequestId: string): Promise<PaymentView> {
    try {
      return await deps.payments.statusFor(userId, checkoutRequestId);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 404) throw error;
      // Without a token, "not a guest's" is answered as before guest checkout: log in to confirm it.
      if (userId === undefined) throw confirmFailed(401, 'login_required', 'Please log in to confirm the payment.');
      throw confirmFailed(404, 'no_payment_to_confirm', 'No payment to confirm');
    }
  }

  async function handle(userId: string | undefined, checkoutRequestId: string) {
    let view = await read(userId, checkoutRequestId);
    if (view.status === 'pending' && view.ageSeconds >= deps.queryAfterSeconds) {
      const asked = await deps.gateway.stkQuery(checkoutRequestId).catch((error: unknown) => {
        deps.logger.error(`STK query for ${checkoutRequestId} failed`, error);
        return { settled: false };
      });
      if (asked.settled) view = await read(userId, checkoutRequestId);
    }
    return confirmAnswer(view);
  }

  return { handle };
}

export type ConfirmPaymentHandler = ReturnType<typeof createConfirmPaymentHandler>;
