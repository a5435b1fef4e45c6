import { constants, generateKeyPairSync, privateDecrypt, randomBytes, type KeyObject } from 'node:crypto';
import { errorBody } from '@tukio/shared/error-body';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { Logger } from '@tukio/shared/node/logger';
import { darajaTimestamp, REFUND_RESULT_CODES, REMARKS_LENGTH, type ResultBody, type ResultParameter } from '@tukio/shared/daraja-protocol';

/**
 * The reverse path of the Daraja simulator: B2C payouts (v3), B2B payments to a Paybill or a Till, reversals of
 * STK payments and Transaction Status queries, over Daraja's HTTP protocol. Each request is validated as Daraja does (400.002.02 naming
 * the field; 500.002.1001 for a B2C OriginatorConversationID already used), accepted at once, and its
 * result posted to ResultURL after the delay. What happens is chosen per test through modes queued on a
 * key-protected control endpoint; the payouts that moved money, with the STK payments, make the ledger
 * an audit compares with the database.
 */

export const PAYOUT_MODES = ['success', 'insufficient-float', 'invalid-initiator', 'invalid-account', 'queue-timeout', 'no-result', 'already-reversed'] as const;
export type PayoutMode = (typeof PAYOUT_MODES)[number];

/**
 * The next `times` payouts (B2C, B2B or reversal; to `phone` only, when given: a phone, or a B2B Paybill or Till) go this way:
 * - success: paid, result 0;  insufficient-float: result 1;  invalid-initiator: 2001;  already-reversed: R000001;
 * - invalid-account: 2040, the receiving customer, Paybill or Till (or the Paybill's account) is not registered;
 * - queue-timeout: a post to QueueTimeOutURL and no result; the money moves when `payout` is true;
 * - no-result: the money moves and nothing is posted at all.
 */
export interface PayoutModeRule {
  mode: PayoutMode;
  times: number;
  payout: boolean;
  phone?: string | undefined;
}

export interface SimulatedPayout {
  kind: 'b2c' | 'reversal' | 'b2b';
  originatorConversationId: string;
  conversationId: string;
  amount: number;
  /** Who gets the money: PartyB (a phone, or a B2B Paybill or Till), or the payer of the reversed payment. */
  phone: string;
  /** B2B: BusinessPayBill or BusinessBuyGoods, and the Paybill's account number. */
  commandId?: string;
  accountReference?: string;
  /** Reversal: the STK receipt reversed. */
  originalReceipt?: string;
  resultUrl: string;
  timeoutUrl: string;
  mode: PayoutMode;
  /** queue-timeout: whether the money moves anyway. */
  payoutOnTimeout: boolean;
  credentialValid: boolean;
  status: 'queued' | 'paid' | 'failed' | 'expired';
  resultCode?: string;
  resultDesc?: string;
  /** The payout's M-Pesa receipt, once paid. */
  transactionId?: string;
  /** What was posted back: result, timeout or nothing. */
  posted?: 'result' | 'timeout' | 'nothing';
  createdAt: Date;
  completedAt?: Date;
  timer?: NodeJS.Timeout;
}

/** A completed STK payment the simulator knows by receipt (what a reversal reverses). */
export interface PaidPrompt {
  receipt: string;
  amount: number;
  phone: string;
  checkoutRequestId: string;
}

export interface PayoutSimulatorDeps {
  shortcode: string;
  b2cShortcode: string;
  initiatorName: string;
  initiatorPassword: string;
  delayMs: number;
  logger: Logger;
  /** Daraja's error body. */
  fail(res: Response, status: number, errorCode: string, errorMessage: string): void;
  bearerValid(req: Request): boolean;
  /** A fresh 10-character receipt, as STK receipts. */
  receipt(): string;
  /** Whether a ResultURL or QueueTimeOutURL is one the simulator posts to (the merchant's own origins). */
  isCallbackUrl(url: unknown): boolean;
  /** POSTs JSON to a merchant URL once (Daraja does not retry). */
  post(url: string, body: unknown): Promise<void>;
  paymentByReceipt(receipt: string): PaidPrompt | undefined;
}

const OUTCOME_TEXT: Record<string, string> = {
  [REFUND_RESULT_CODES.success]: 'The service request is processed successfully.',
  [REFUND_RESULT_CODES.insufficientFloat]: 'The balance is insufficient for the transaction.',
  [REFUND_RESULT_CODES.belowMinimum]: 'Declined due to limit rule: less than the minimum transaction amount.',
  [REFUND_RESULT_CODES.aboveMaximum]: 'Declined due to limit rule: greater than the maximum transaction amount.',
  [REFUND_RESULT_CODES.invalidInitiator]: 'The initiator information is invalid.',
  [REFUND_RESULT_CODES.receiverNotRegistered]: 'The receiver party is not registered or the account is invalid.',
  [REFUND_RESULT_CODES.alreadyReversed]: 'The transaction has already been reversed.',
  [REFUND_RESULT_CODES.invalidOriginalTransaction]: 'The OriginalTransactionID is invalid.',
  [REFUND_RESULT_CODES.noSuchTransaction]: 'The transaction could not be found.',
};

/** The result code a failure mode answers with. */
const MODE_CODES: Partial<Record<PayoutMode, string>> = {
  'insufficient-float': REFUND_RESULT_CODES.insufficientFloat,
  'invalid-initiator': REFUND_RESULT_CODES.invalidInitiator,
  'invalid-account': REFUND_RESULT_CODES.receiverNotRegistered,
  'already-reversed': REFUND_RESULT_CODES.alreadyReversed,
};

/** Transaction Status's ReasonType of each kind of request. */
const REASON_TYPES: Record<string, string> = {
  b2c: 'Business Payment to Customer via API',
  BusinessPayBill: 'Business Pay Bill',
  BusinessBuyGoods: 'Business Buy Goods',
};

/** Numeric codes go out as numbers, the R… and SFC… ones as strings, as Daraja sends them. */
const wireCode = (code: string): number | string => (/^\d+$/.test(code) ? Number(code) : code);

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const conversationId = () => `AG_${darajaTimestamp().slice(0, 8)}_${hex(10)}`;
const darajaOriginatorId = () => `${hex(2)}-${hex(2)}-${hex(2)}-${hex(8)}`;
/** 2026-07-06 22:48:52 as Daraja's "06.07.2026 22:48:52" (EAT). */
const dottedTime = (stamp: string) => `${stamp.slice(6, 8)}.${stamp.slice(4, 6)}.${stamp.slice(0, 4)} ${stamp.slice(8, 10)}:${stamp.slice(10, 12)}:${stamp.slice(12, 14)}`;

const remarksValid = (value: unknown) => typeof value === 'string' && value.length >= REMARKS_LENGTH.min && value.length <= REMARKS_LENGTH.max;
/** A whole number of shillings, sent as a number or a numeric string (Daraja's samples send "10"). */
const wholeAmount = (value: unknown) => {
  const amount = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isInteger(amount) && amount >= 1 ? amount : undefined;
};
const nonEmpty = (value: unknown) => typeof value === 'string' && value.trim().length > 0 && value.length <= 1000;

/**
 * The simulator's RSA key: Daraja's SecurityCredential is the initiator password encrypted with this public key
 * (PKCS#1 v1.5). Made on first use (tens of ms), so simulators that never see a refund do not pay for it.
 */
function createInitiatorKey() {
  let pair: { publicKey: KeyObject; privateKey: KeyObject } | undefined;
  const keys = () => (pair ??= generateKeyPairSync('rsa', { modulusLength: 2048 }));
  return {
    publicKeyPem: () => keys().publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    publicKey: () => keys().publicKey,
    /**
     * The password inside a credential, or undefined. Node refuses PKCS#1 v1.5 private decryption (Marvin
     * attack), so the block is opened raw and its padding checked here: 00 02, at least 8 non-zero bytes, 00.
     * A simulator is no oracle worth attacking; OAEP or another key fails the check, as on Daraja (2001).
     */
    open(credential: string): string | undefined {
      const cipher = Buffer.from(credential, 'base64');
      if (cipher.length !== 256) return undefined;
      let block: Buffer;
      try {
        block = privateDecrypt({ key: keys().privateKey, padding: constants.RSA_NO_PADDING }, cipher);
      } catch {
        return undefined;
      }
      if (block[0] !== 0 || block[1] !== 2) return undefined;
      const end = block.indexOf(0, 2);
      if (end < 10) return undefined;
      return block.subarray(end + 1).toString('utf8');
    },
  };
}

/** M-Pesa's books as the simulator keeps them (GET /simulator/ledger: JSON for the audit, a page for a person). */
export interface SimulatedLedger {
  payments: Array<{ receipt: string; amount: number; phone: string; checkoutRequestId: string; completedAt: string }>;
  /** B2C payouts (refunds and organiser payouts alike: M-Pesa does not know why) and reversals. */
  refunds: Array<{
    transactionId: string;
    originatorConversationId: string;
    amount: number;
    kind: string;
    phone: string;
    originalReceipt: string | null;
    completedAt: string;
  }>;
  /** B2B payments to a Paybill (with its account number) or a Till. */
  b2b: Array<{
    transactionId: string;
    originatorConversationId: string;
    conversationId: string;
    amount: number;
    commandId: string;
    partyB: string;
    accountReference: string | null;
    completedAt: string;
  }>;
}

export function createPayoutSimulator(deps: PayoutSimulatorDeps) {
  const key = createInitiatorKey();
  /** Every payout request by its OriginatorConversationID (ours for B2C, made up here for reversals). */
  const payouts = new Map<string, SimulatedPayout>();
  const byConversation = new Map<string, SimulatedPayout>();
  const byTransaction = new Map<string, SimulatedPayout>();
  /** STK receipts with a reversal paid or on its way. */
  const reversed = new Set<string>();
  /** Transaction Status queries waiting for their delay. */
  const queries = new Set<NodeJS.Timeout>();
  let rules: PayoutModeRule[] = [];
  let closed = false;

  function takeRule(phone: string): PayoutModeRule | undefined {
    const index = rules.findIndex((rule) => !rule.phone || rule.phone === phone);
    if (index < 0) return undefined;
    const rule = rules[index]!;
    rule.times -= 1;
    if (rule.times <= 0) rules.splice(index, 1);
    return rule;
  }

  function credentialValid(name: unknown, credential: unknown) {
    return name === deps.initiatorName && typeof credential === 'string' && key.open(credential) === deps.initiatorPassword;
  }

  /** The first invalid field of a request as Daraja names it, or undefined. */
  function invalidField(checks: Array<[field: string, valid: boolean]>) {
    return checks.find(([, valid]) => !valid)?.[0];
  }

  function refuse(res: Response, field: string) {
    deps.fail(res, 400, '400.002.02', `Bad Request - Invalid ${field}`);
  }

  function accepted(res: Response, payout: { conversationId: string; originatorConversationId: string }) {
    res.json({
      ConversationID: payout.conversationId,
      OriginatorConversationID: payout.originatorConversationId,
      ResponseCode: '0',
      ResponseDescription: 'Accept the service request successfully.',
    });
  }

  function resultBody(payout: SimulatedPayout, parameters: ResultParameter[] | undefined, stamp: string): ResultBody {
    const code = payout.resultCode!;
    if (payout.kind === 'b2b') return b2bResultBody(payout, parameters, stamp);
    return {
      Result: {
        ResultType: 0,
        ResultCode: wireCode(code),
        ResultDesc: payout.resultDesc!,
        OriginatorConversationID: payout.originatorConversationId,
        ConversationID: payout.conversationId,
        // A failed B2C still names a transaction; a failed reversal a placeholder.
        TransactionID: payout.transactionId ?? (payout.kind === 'reversal' ? `${deps.receipt().slice(0, 3)}0000000` : deps.receipt()),
        ...(parameters ? { ResultParameters: { ResultParameter: parameters } } : {}),
        ReferenceData: {
          ReferenceItem: {
            Key: 'QueueTimeoutURL',
            Value: `https://internalsandbox.safaricom.co.ke/mpesa/${payout.kind === 'b2c' ? 'b2cresults' : 'reversalresults'}/v1/submit`,
          },
        },
      },
    };
  }

  /**
   * B2B results as Daraja's samples send them: a success's ResultCode and ResultType are strings, its parameters and
   * reference items arrays; a failure's are numbers, with single objects and a placeholder TransactionID.
   */
  function b2bResultBody(payout: SimulatedPayout, parameters: ResultParameter[] | undefined, stamp: string): ResultBody {
    const ids = { OriginatorConversationID: payout.originatorConversationId, ConversationID: payout.conversationId };
    const timeoutItem = { Key: 'QueueTimeoutURL', Value: 'https://internalsandbox.safaricom.co.ke/mpesa/b2bresults/v1/submit' };
    if (parameters) {
      return {
        Result: {
          ResultType: '0',
          ResultCode: '0',
          ResultDesc: payout.resultDesc!,
          ...ids,
          TransactionID: payout.transactionId!,
          ResultParameters: { ResultParameter: parameters },
          ReferenceData: { ReferenceItem: [{ Key: 'BillReferenceNumber', Value: payout.accountReference ?? '' }, timeoutItem] },
        },
      };
    }
    return {
      Result: {
        ResultType: 0,
        ResultCode: wireCode(payout.resultCode!),
        ResultDesc: payout.resultDesc!,
        ...ids,
        TransactionID: `${deps.receipt().slice(0, 3)}0000000`,
        ResultParameters: { ResultParameter: { Key: 'BOCompletedTime', Value: Number(stamp) } },
        ReferenceData: { ReferenceItem: timeoutItem },
      },
    };
  }

  function successParameters(payout: SimulatedPayout, stamp: string): ResultParameter[] {
    if (payout.kind === 'b2b') {
      return [
        { Key: 'DebitAccountBalance', Value: '{Amount={CurrencyCode=KES, MinimumAmount=618683, BasicAmount=6186.83}}' },
        { Key: 'Amount', Value: payout.amount.toFixed(2) },
        { Key: 'DebitPartyAffectedAccountBalance', Value: 'Working Account|KES|346131.83|6186.83|340000.00|0.00' },
        { Key: 'TransCompletedTime', Value: Number(stamp) },
        { Key: 'DebitPartyCharges', Value: '' },
        { Key: 'ReceiverPartyPublicName', Value: `${payout.phone} - Simulated Business` },
        { Key: 'Currency', Value: 'KES' },
        { Key: 'InitiatorAccountCurrentBalance', Value: '{Amount={CurrencyCode=KES, MinimumAmount=618683, BasicAmount=6186.83}}' },
      ];
    }
    if (payout.kind === 'b2c') {
      return [
        { Key: 'TransactionAmount', Value: payout.amount },
        { Key: 'TransactionReceipt', Value: payout.transactionId! },
        { Key: 'ReceiverPartyPublicName', Value: `${payout.phone} - Simulated Customer` },
        { Key: 'TransactionCompletedDateTime', Value: dottedTime(stamp) },
        { Key: 'B2CUtilityAccountAvailableFunds', Value: 8959269.6 },
        { Key: 'B2CWorkingAccountAvailableFunds', Value: 1199371.0 },
        { Key: 'B2CRecipientIsRegisteredCustomer', Value: 'Y' },
        { Key: 'B2CChargesPaidAccountAvailableFunds', Value: -1980.0 },
      ];
    }
    return [
      { Key: 'DebitAccountBalance', Value: 'Utility Account|KES|7722179.62|7722179.62|0.00|0.00' },
      { Key: 'Amount', Value: payout.amount },
      { Key: 'TransCompletedTime', Value: Number(stamp) },
      { Key: 'OriginalTransactionID', Value: payout.originalReceipt! },
      { Key: 'Charge', Value: 0 },
      { Key: 'CreditPartyPublicName', Value: `${payout.phone} - Simulated Customer` },
      { Key: 'DebitPartyPublicName', Value: `${deps.shortcode} - Tukio Simulator` },
    ];
  }

  /** Why the payout cannot be paid whatever the mode says, or undefined. */
  function refusal(payout: SimulatedPayout): string | undefined {
    if (!payout.credentialValid) return REFUND_RESULT_CODES.invalidInitiator;
    if (payout.kind === 'b2c' || payout.kind === 'b2b') {
      if (payout.amount < 10) return REFUND_RESULT_CODES.belowMinimum;
      if (payout.amount > 250_000) return REFUND_RESULT_CODES.aboveMaximum;
      return undefined;
    }
    const original = deps.paymentByReceipt(payout.originalReceipt!);
    if (!original || original.amount !== payout.amount) return REFUND_RESULT_CODES.invalidOriginalTransaction;
    if (reversed.has(payout.originalReceipt!)) return REFUND_RESULT_CODES.alreadyReversed;
    return undefined;
  }

  function pay(payout: SimulatedPayout) {
    payout.status = 'paid';
    payout.transactionId = deps.receipt();
    byTransaction.set(payout.transactionId, payout);
    if (payout.kind === 'reversal') reversed.add(payout.originalReceipt!);
  }

  function complete(payout: SimulatedPayout) {
    if (closed || payout.status !== 'queued') return;
    const stamp = darajaTimestamp();
    payout.completedAt = new Date();
    const code = refusal(payout) ?? MODE_CODES[payout.mode];
    if (payout.mode === 'queue-timeout') {
      if (payout.payoutOnTimeout && !code) pay(payout);
      else payout.status = 'expired';
      payout.posted = 'timeout';
      void deps.post(payout.timeoutUrl, {
        Result: {
          ResultType: 1,
          ResultCode: 1,
          ResultDesc: 'The request timed out in the M-Pesa queue.',
          OriginatorConversationID: payout.originatorConversationId,
          ConversationID: payout.conversationId,
        },
      });
      return;
    }
    if (code) {
      payout.status = 'failed';
      payout.resultCode = code;
      payout.resultDesc = OUTCOME_TEXT[code];
    } else {
      pay(payout);
      payout.resultCode = REFUND_RESULT_CODES.success;
      payout.resultDesc = OUTCOME_TEXT[REFUND_RESULT_CODES.success];
    }
    if (payout.mode === 'no-result' && !code) {
      payout.posted = 'nothing';
      return;
    }
    payout.posted = 'result';
    void deps.post(payout.resultUrl, resultBody(payout, code ? undefined : successParameters(payout, stamp), stamp));
  }

  function queue(payout: SimulatedPayout) {
    payouts.set(payout.originatorConversationId, payout);
    byConversation.set(payout.conversationId, payout);
    payout.timer = setTimeout(() => complete(payout), deps.delayMs);
    payout.timer.unref?.();
  }

  function newPayout(kind: SimulatedPayout['kind'], input: Omit<SimulatedPayout, 'kind' | 'conversationId' | 'mode' | 'payoutOnTimeout' | 'status' | 'createdAt'>): SimulatedPayout {
    const rule = takeRule(input.phone);
    return { kind, ...input, conversationId: conversationId(), mode: rule?.mode ?? 'success', payoutOnTimeout: rule?.payout ?? false, status: 'queued', createdAt: new Date() };
  }

  /** What a Transaction Status query finds: the request or transaction it names, as it stands now. */
  function statusResult(query: { originatorConversationId: string; conversationId: string; original?: string; receipt?: string; valid: boolean }): ResultBody {
    const found = query.original
      ? (payouts.get(query.original) ?? byConversation.get(query.original))
      : query.receipt
        ? byTransaction.get(query.receipt)
        : undefined;
    const base = { ResultType: 0, OriginatorConversationID: query.originatorConversationId, ConversationID: query.conversationId, TransactionID: 'MBN0000000' };
    if (!query.valid) return { Result: { ...base, ResultCode: wireCode(REFUND_RESULT_CODES.invalidInitiator), ResultDesc: OUTCOME_TEXT[REFUND_RESULT_CODES.invalidInitiator] } };
    if (!found || found.status === 'expired') {
      return { Result: { ...base, ResultCode: REFUND_RESULT_CODES.noSuchTransaction, ResultDesc: OUTCOME_TEXT[REFUND_RESULT_CODES.noSuchTransaction] } };
    }
    const status = found.status === 'paid' ? 'Completed' : found.status === 'failed' ? 'Failed' : 'Pending';
    const stamp = (date: Date | undefined) => (date ? Number(darajaTimestamp(date)) : undefined);
    const parameters: ResultParameter[] = [
      { Key: 'DebitPartyName', Value: found.kind === 'reversal' ? `${deps.shortcode} - Tukio Simulator` : `${deps.b2cShortcode} - Tukio Simulator` },
      { Key: 'CreditPartyName', Value: `${found.phone} - Simulated ${found.kind === 'b2b' ? 'Business' : 'Customer'}` },
      { Key: 'OriginatorConversationID', Value: found.originatorConversationId },
      { Key: 'InitiatedTime', Value: stamp(found.createdAt)! },
      { Key: 'DebitAccountType', Value: 'Utility Account' },
      { Key: 'DebitPartyCharges', Value: found.kind === 'b2c' ? 'Fee For B2C Payment|KES|22.40' : '' },
      { Key: 'TransactionReason' },
      { Key: 'ReasonType', Value: REASON_TYPES[found.commandId ?? found.kind] ?? 'Reversal' },
      { Key: 'TransactionStatus', Value: status },
      ...(found.completedAt ? [{ Key: 'FinalisedTime', Value: stamp(found.completedAt)! }] : []),
      { Key: 'Amount', Value: found.amount },
      { Key: 'ConversationID', Value: found.conversationId },
      ...(found.transactionId ? [{ Key: 'ReceiptNo', Value: found.transactionId }] : []),
    ];
    return {
      Result: {
        ...base,
        ResultCode: 0,
        ResultDesc: 'The service request has been accepted successsfully.',
        ResultParameters: { ResultParameter: parameters },
        ReferenceData: { ReferenceItem: { Key: 'Occasion' } },
      },
    };
  }

  /** The protocol endpoints, on the simulator's Daraja router (after its JSON parser). */
  function mount(api: Router) {
    const authorized: RequestHandler = (req, res, next) => {
      if (!deps.bearerValid(req)) return deps.fail(res, 401, '404.001.03', 'Invalid Access Token');
      next();
    };

    api.post('/mpesa/b2c/v3/paymentrequest', authorized, (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const amount = wholeAmount(body.Amount);
      const field = invalidField([
        ['OriginatorConversationID', nonEmpty(body.OriginatorConversationID) && String(body.OriginatorConversationID).length <= 100],
        ['InitiatorName', nonEmpty(body.InitiatorName)],
        ['SecurityCredential', nonEmpty(body.SecurityCredential)],
        ['CommandID', ['BusinessPayment', 'SalaryPayment', 'PromotionPayment'].includes(String(body.CommandID))],
        ['Amount', amount !== undefined],
        ['PartyA', String(body.PartyA ?? '') === deps.b2cShortcode],
        ['PartyB', /^254[17]\d{8}$/.test(String(body.PartyB ?? ''))],
        ['Remarks', remarksValid(body.Remarks)],
        ['QueueTimeOutURL', deps.isCallbackUrl(body.QueueTimeOutURL)],
        ['ResultURL', deps.isCallbackUrl(body.ResultURL)],
        ['Occassion', body.Occassion === undefined || (typeof body.Occassion === 'string' && body.Occassion.length <= 100)],
      ]);
      if (field) return refuse(res, field);
      const originatorConversationId = String(body.OriginatorConversationID);
      if (payouts.has(originatorConversationId)) return deps.fail(res, 500, '500.002.1001', 'Duplicate OriginatorConversationID');
      const payout = newPayout('b2c', {
        originatorConversationId,
        amount: amount!,
        phone: String(body.PartyB),
        resultUrl: String(body.ResultURL),
        timeoutUrl: String(body.QueueTimeOutURL),
        credentialValid: credentialValid(body.InitiatorName, body.SecurityCredential),
      });
      queue(payout);
      accepted(res, payout);
    });

    api.post('/mpesa/b2b/v1/paymentrequest', authorized, (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const amount = wholeAmount(body.Amount);
      const payBill = body.CommandID === 'BusinessPayBill';
      const reference = body.AccountReference;
      const field = invalidField([
        ['Initiator', nonEmpty(body.Initiator)],
        ['SecurityCredential', nonEmpty(body.SecurityCredential)],
        ['CommandID', payBill || body.CommandID === 'BusinessBuyGoods'],
        ['SenderIdentifierType', String(body.SenderIdentifierType ?? '') === '4'],
        // Misspelled as on reversals; both identifier types are "4" on the current Daraja pages.
        ['RecieverIdentifierType', String(body.RecieverIdentifierType ?? '') === '4'],
        ['Amount', amount !== undefined],
        ['PartyA', String(body.PartyA ?? '') === deps.b2cShortcode],
        ['PartyB', /^\d{5,7}$/.test(String(body.PartyB ?? ''))],
        // A Paybill needs the account to credit; a Till has none, but one sent is still checked.
        ['AccountReference', reference === undefined && !payBill ? true : typeof reference === 'string' && reference.trim().length > 0 && reference.length <= 13],
        ['Requester', body.Requester === undefined || /^254\d{9}$/.test(String(body.Requester))],
        ['Remarks', remarksValid(body.Remarks)],
        ['QueueTimeOutURL', deps.isCallbackUrl(body.QueueTimeOutURL)],
        ['ResultURL', deps.isCallbackUrl(body.ResultURL)],
        ['Occassion', body.Occassion === undefined || (typeof body.Occassion === 'string' && body.Occassion.length <= 100)],
      ]);
      if (field) return refuse(res, field);
      const payout = newPayout('b2b', {
        originatorConversationId: darajaOriginatorId(),
        amount: amount!,
        phone: String(body.PartyB),
        commandId: String(body.CommandID),
        ...(typeof reference === 'string' ? { accountReference: reference } : {}),
        resultUrl: String(body.ResultURL),
        timeoutUrl: String(body.QueueTimeOutURL),
        credentialValid: credentialValid(body.Initiator, body.SecurityCredential),
      });
      queue(payout);
      accepted(res, payout);
    });

    api.post('/mpesa/reversal/v1/request', authorized, (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const amount = wholeAmount(body.Amount);
      const field = invalidField([
        ['Initiator', nonEmpty(body.Initiator)],
        ['SecurityCredential', nonEmpty(body.SecurityCredential)],
        ['CommandID', body.CommandID === 'TransactionReversal'],
        ['TransactionID', /^[A-Z0-9]{10}$/.test(String(body.TransactionID ?? ''))],
        ['Amount', amount !== undefined],
        ['ReceiverParty', String(body.ReceiverParty ?? '') === deps.shortcode],
        // Daraja's own spelling; "ReceiverIdentifierType" is refused as this very field.
        ['RecieverIdentifierType', String(body.RecieverIdentifierType ?? '') === '11'],
        ['ResultURL', deps.isCallbackUrl(body.ResultURL)],
        ['QueueTimeOutURL', deps.isCallbackUrl(body.QueueTimeOutURL)],
        ['Remarks', remarksValid(body.Remarks)],
      ]);
      if (field) return refuse(res, field);
      const originalReceipt = String(body.TransactionID);
      const payout = newPayout('reversal', {
        originatorConversationId: darajaOriginatorId(),
        amount: amount!,
        phone: deps.paymentByReceipt(originalReceipt)?.phone ?? '',
        originalReceipt,
        resultUrl: String(body.ResultURL),
        timeoutUrl: String(body.QueueTimeOutURL),
        credentialValid: credentialValid(body.Initiator, body.SecurityCredential),
      });
      queue(payout);
      accepted(res, payout);
    });

    api.post('/mpesa/transactionstatus/v1/query', authorized, (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const original = nonEmpty(body.OriginalConversationID) ? String(body.OriginalConversationID) : undefined;
      const receipt = nonEmpty(body.TransactionID) ? String(body.TransactionID) : undefined;
      const field = invalidField([
        ['Initiator', nonEmpty(body.Initiator)],
        ['SecurityCredential', nonEmpty(body.SecurityCredential)],
        ['CommandID', body.CommandID === 'TransactionStatusQuery'],
        ['TransactionID', Boolean(original || receipt)],
        ['PartyA', /^\d{5,9}$|^254\d{9}$/.test(String(body.PartyA ?? ''))],
        ['IdentifierType', ['1', '2', '4'].includes(String(body.IdentifierType ?? ''))],
        ['ResultURL', deps.isCallbackUrl(body.ResultURL)],
        ['QueueTimeOutURL', deps.isCallbackUrl(body.QueueTimeOutURL)],
        ['Remarks', typeof body.Remarks === 'string' && body.Remarks.length >= 1 && body.Remarks.length <= REMARKS_LENGTH.max],
      ]);
      if (field) return refuse(res, field);
      const query = {
        originatorConversationId: darajaOriginatorId(),
        conversationId: conversationId(),
        original,
        receipt,
        valid: credentialValid(body.Initiator, body.SecurityCredential),
      };
      const resultUrl = String(body.ResultURL);
      const timer = setTimeout(() => {
        queries.delete(timer);
        if (!closed) void deps.post(resultUrl, statusResult(query));
      }, deps.delayMs);
      timer.unref?.();
      queries.add(timer);
      accepted(res, query);
    });
  }

  const view = (payout: SimulatedPayout) => ({
    kind: payout.kind,
    originatorConversationId: payout.originatorConversationId,
    conversationId: payout.conversationId,
    amount: payout.amount,
    phone: payout.phone,
    originalReceipt: payout.originalReceipt ?? null,
    commandId: payout.commandId ?? null,
    accountReference: payout.accountReference ?? null,
    mode: payout.mode,
    status: payout.status,
    resultCode: payout.resultCode ?? null,
    transactionId: payout.transactionId ?? null,
    posted: payout.posted ?? null,
    createdAt: payout.createdAt.toISOString(),
  });

  /**
   * Key-protected control and ledger endpoints on the phone router (`requireKey` is the simulator's check of
   * SIMULATOR_KEY), and the public key initiators encrypt their password with.
   */
  function mountControl(phone: Router, requireKey: RequestHandler) {
    phone.get('/certificate.pem', (_req, res) => {
      res.type('application/x-pem-file').send(key.publicKeyPem());
    });
    phone.get('/payouts', requireKey, (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json([...payouts.values()].map(view));
    });
    phone.get('/payouts/modes', requireKey, (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(rules);
    });
    phone.post('/payouts/modes', requireKey, (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const times = body.times === undefined ? 1 : Number(body.times);
      const phoneNumber = body.phone === undefined ? undefined : String(body.phone);
      if (!PAYOUT_MODES.includes(body.mode as PayoutMode) || !Number.isInteger(times) || times < 1 || times > 1000 || (phoneNumber !== undefined && !/^254\d{9}$|^\d{5,7}$/.test(phoneNumber))) {
        res.status(400).json(errorBody(`Send {mode: ${PAYOUT_MODES.join(' | ')}, times?: 1-1000, payout?: boolean (queue-timeout), phone?: 254XXXXXXXXX or a Paybill/Till}.`, 'simulator_refused'));
        return;
      }
      rules.push({ mode: body.mode as PayoutMode, times, payout: body.payout === true, phone: phoneNumber });
      res.status(201).json(rules);
    });
    phone.delete('/payouts/modes', requireKey, (_req, res) => {
      rules = [];
      res.json(rules);
    });
  }

  const paidOut = (kind: (kind: SimulatedPayout['kind']) => boolean) => [...payouts.values()].filter((payout) => payout.status === 'paid' && kind(payout.kind));

  /** M-Pesa's side of the books: completed STK payments and the payouts that moved money. */
  function ledger(payments: Array<PaidPrompt & { completedAt: Date }>): SimulatedLedger {
    return {
      payments: payments.map((payment) => ({
        receipt: payment.receipt,
        amount: payment.amount,
        phone: payment.phone,
        checkoutRequestId: payment.checkoutRequestId,
        completedAt: payment.completedAt.toISOString(),
      })),
      refunds: paidOut((kind) => kind !== 'b2b').map((payout) => ({
        transactionId: payout.transactionId!,
        originatorConversationId: payout.originatorConversationId,
        amount: payout.amount,
        kind: payout.kind,
        phone: payout.phone,
        originalReceipt: payout.originalReceipt ?? null,
        completedAt: (payout.completedAt ?? payout.createdAt).toISOString(),
      })),
      b2b: paidOut((kind) => kind === 'b2b').map((payout) => ({
        transactionId: payout.transactionId!,
        originatorConversationId: payout.originatorConversationId,
        conversationId: payout.conversationId,
        amount: payout.amount,
        commandId: payout.commandId!,
        partyB: payout.phone,
        accountReference: payout.accountReference ?? null,
        completedAt: (payout.completedAt ?? payout.createdAt).toISOString(),
      })),
    };
  }

  return {
    mount,
    mountControl,
    ledger,
    payouts,
    /** The public key of the simulated M-Pesa certificate (what DARAJA_CERT_PATH points to with real Daraja). */
    publicKey: () => key.publicKey(),
    publicKeyPem: () => key.publicKeyPem(),
    close() {
      closed = true;
      for (const payout of payouts.values()) clearTimeout(payout.timer);
      for (const timer of queries) clearTimeout(timer);
    },
  };
}

export type PayoutSimulator = ReturnType<typeof createPayoutSimulator>;
