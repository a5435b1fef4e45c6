import { REFUND_RESULT_CODES, resultParameter, type ResultParameter } from '@tukio/shared/daraja-protocol';
import { z } from 'zod';

/**
 * Daraja's results of asynchronous requests (B2C and B2B payouts, reversals, Transaction Status queries), read
 * the same way for refunds and organiser payouts.
 */

const text = (max: number) => z.union([z.string(), z.number()]).transform((value) => String(value).trim().slice(0, max));
const parameter = z.object({ Key: z.string().max(100), Value: z.union([z.string().max(1000), z.number()]).optional().catch(undefined) });
const parameters = z.union([parameter, z.array(parameter).max(50)]).optional().catch(undefined);

/**
 * A Daraja result (or queue timeout) body, read loosely: ResultCode a number or a string, ResultParameter
 * and ReferenceItem an object or an array, parameters with or without Value, unknown fields ignored.
 */
const resultSchema = z.object({
  Result: z.object({
    ResultType: z.unknown().optional(),
    ResultCode: text(40).pipe(z.string().min(1)),
    ResultDesc: text(1000).optional().catch(undefined),
    OriginatorConversationID: text(100).optional().catch(undefined),
    ConversationID: text(100).optional().catch(undefined),
    TransactionID: text(100).optional().catch(undefined),
    ResultParameters: z.object({ ResultParameter: parameters }).optional().catch(undefined),
    ReferenceData: z.unknown().optional(),
  }),
});

export interface ParsedResult {
  resultCode: string;
  resultDesc: string;
  originatorConversationId: string | undefined;
  conversationId: string | undefined;
  transactionId: string | undefined;
  parameters: ResultParameter[] | ResultParameter | undefined;
}

export function parseResult(body: unknown): ParsedResult | undefined {
  const parsed = resultSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const result = parsed.data.Result;
  return {
    resultCode: result.ResultCode,
    resultDesc: result.ResultDesc ?? '',
    originatorConversationId: result.OriginatorConversationID || undefined,
    conversationId: result.ConversationID || undefined,
    transactionId: result.TransactionID || undefined,
    parameters: result.ResultParameters?.ResultParameter,
  };
}

/** A receipt-like id (M-Pesa receipts are 10 uppercase alphanumerics; ids the API server accepts). */
const PROVIDER_ID = /^[A-Za-z0-9_.:-]{1,100}$/;
export const providerId = (value: unknown) => {
  const id = value === undefined ? undefined : String(value).trim();
  return id && PROVIDER_ID.test(id) ? id : undefined;
};
export const amountOf = (value: unknown) => {
  const amount = Number(value);
  return value === undefined || value === '' || !Number.isFinite(amount) ? undefined : amount;
};

/**
 * The charge a result names: a reversal's `Charge` (a number), or B2B's and Transaction Status's
 * `DebitPartyCharges` ("Fee For B2C Payment|KES|22.40", empty when none).
 */
export function chargeOf(parameters: ParsedResult['parameters']): number | undefined {
  const charge = resultParameter(parameters, 'Charge');
  if (charge !== undefined) return amountOf(charge);
  const charges = resultParameter(parameters, 'DebitPartyCharges');
  const last = typeof charges === 'string' ? charges.split('|').pop()?.trim() : charges;
  const amount = amountOf(last);
  return amount !== undefined && amount >= 0 ? amount : undefined;
}

/** Transaction Status words that say the queried request did not pay (anything else unknown is left alone). */
const NOT_PAID = new Set(['failed', 'declined', 'cancelled', 'canceled', 'expired', 'rejected']);

/**
 * What a Transaction Status result says about the queried request:
 * - paid: Completed, with its ReceiptNo (and the Amount and the charge, when named);
 * - failed: a status that says it did not pay, or M-Pesa not knowing the request (`resultCode`/`resultDesc`
 *   are what a result of the attempt carries);
 * - pending: nothing definite — still pending, our query itself refused, or Completed without a receipt
 *   (`indefinite` false: the latter).
 */
export type StatusVerdict =
  | { state: 'paid'; transactionId: string; amount: number | undefined; charge: number | undefined; conversationId: string | undefined; namedOriginatorConversationId: string | undefined; status: string }
  | { state: 'failed'; resultCode: string; resultDesc: string; conversationId: string | undefined }
  | { state: 'pending'; indefinite: boolean; status: string };

export function transactionStatusVerdict(result: ParsedResult): StatusVerdict {
  const status = String(resultParameter(result.parameters, 'TransactionStatus') ?? '').trim();
  const conversationId = providerId(resultParameter(result.parameters, 'ConversationID'));
  if (result.resultCode === REFUND_RESULT_CODES.success && /^completed$/i.test(status)) {
    const transactionId = providerId(resultParameter(result.parameters, 'ReceiptNo'));
    if (!transactionId) return { state: 'pending', indefinite: false, status };
    return {
      state: 'paid',
      transactionId,
      amount: amountOf(resultParameter(result.parameters, 'Amount')),
      charge: chargeOf(result.parameters),
      conversationId,
      namedOriginatorConversationId: providerId(resultParameter(result.parameters, 'OriginatorConversationID')),
      status,
    };
  }
  if (result.resultCode === REFUND_RESULT_CODES.success && NOT_PAID.has(status.toLowerCase())) {
    return { state: 'failed', resultCode: `status:${status}`.slice(0, 40), resultDesc: `Transaction Status: ${status}. ${result.resultDesc}`.trim(), conversationId };
  }
  if (result.resultCode === REFUND_RESULT_CODES.noSuchTransaction) {
    return { state: 'failed', resultCode: result.resultCode, resultDesc: `Transaction Status: no such request. ${result.resultDesc}`.trim(), conversationId };
  }
  return { state: 'pending', indefinite: true, status };
}
