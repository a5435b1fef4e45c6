import { randomBytes } from 'node:crypto';
import { ORDER_CODE_ALPHABET, forbiddenUrlWord, paybillCheckoutId } from '@tukio/shared/internal-c2b';
import { darajaTimestamp } from '@tukio/shared/daraja-protocol';
import type { Logger } from '@tukio/shared/node/logger';
import type { Request, Response, Router } from 'express';
import type { PaidPrompt } from './payouts.js';

/**
 * Paying a Paybill from the M-Pesa menu (C2B), as Daraja does it: the merchant registers a validation and a
 * confirmation URL (Register URL v1/v2); a payment to the shortcode first asks the validation URL (accept, or a
 * C2B000xx rejection: no money moves), then completes (M-Pesa's books) and tells the confirmation URL. When
 * validation does not answer, the registered ResponseType decides. Daraja v2 masks the payer's number.
 */

/** What the simulated customer does (the `mode` of POST /simulator/menu/pay). */
export const C2B_MODES = ['normal', 'wrong-account', 'wrong-amount', 'late', 'no-confirmation'] as const;
export type C2bMode = (typeof C2B_MODES)[number];

interface Registration {
  validationUrl: string;
  confirmationUrl: string;
  responseType: 'Completed' | 'Cancelled';
  version: 'v1' | 'v2';
}

export interface C2bPayment {
  transId: string;
  phone: string;
  account: string;
  amount: number;
  mode: C2bMode;
  /** rejected: validation said no (no money moved); cancelled: no validation answer and ResponseType Cancelled. */
  status: 'completed' | 'rejected' | 'cancelled';
  resultCode: string;
  confirmationSent: boolean;
  createdAt: Date;
}

export interface C2bSimulatorDeps {
  shortcode: string;
  logger: Logger;
  /** How long a `late` payer waits before paying (the seats' hold may run out meanwhile). */
  lateMs: number;
  fail: (res: Response, status: number, errorCode: string, errorMessage: string) => void;
  bearerValid: (req: Request) => boolean;
  receipt: () => string;
  isCallbackUrl: (url: unknown) => boolean;
  /** POSTs to a merchant URL: its JSON answer, or undefined when it did not answer 2xx in time. */
  postForAnswer: (url: string, body: unknown, what: string) => Promise<unknown>;
  /** M-Pesa's books: a completed payment, never forgotten (the audit and reversals read it). */
  record: (payment: PaidPrompt) => void;
}

/** Daraja v2's masked MSISDN, e.g. `2547 ***** 126`. */
const masked = (phone: string) => `${phone.slice(0, 4)} ***** ${phone.slice(-3)}`;
const someCode = () => Array.from({ length: 7 }, () => ORDER_CODE_ALPHABET[randomBytes(1)[0]! % ORDER_CODE_ALPHABET.length]).join('');

export function createC2bSimulator(deps: C2bSimulatorDeps) {
  let registration: Registration | undefined;
  const payments: C2bPayment[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const callbackBody = (payment: C2bPayment, balance: string) => ({
    TransactionType: 'Pay Bill',
    TransID: payment.transId,
    TransTime: darajaTimestamp(),
    TransAmount: payment.amount.toFixed(2),
    BusinessShortCode: deps.shortcode,
    BillRefNumber: payment.account,
    InvoiceNumber: '',
    OrgAccountBalance: balance,
    ThirdPartyTransID: '',
    MSISDN: registration?.version === 'v1' ? payment.phone : masked(payment.phone),
    FirstName: 'SIMULATED',
    MiddleName: '',
    LastName: 'PAYER',
  });

  /** Validation (when registered), then the payment and its confirmation (unless the mode loses it). */
  async function run(payment: C2bPayment): Promise<C2bPayment> {
    if (registration) {
      const answer = (await deps.postForAnswer(registration.validationUrl, callbackBody(payment, ''), `C2B validation of ${payment.transId}`)) as { ResultCode?: unknown } | undefined;
      const code = answer?.ResultCode === undefined ? undefined : String(answer.ResultCode);
      if (code === undefined && registration.responseType === 'Cancelled') {
        payment.status = 'cancelled';
        payment.resultCode = 'timeout';
        return payment;
      }
      if (code !== undefined && code !== '0') {
        payment.status = 'rejected';
        payment.resultCode = code;
        return payment;
      }
    }
    payment.status = 'completed';
    payment.resultCode = '0';
    deps.record({ receipt: payment.transId, amount: payment.amount, phone: payment.phone, checkoutRequestId: paybillCheckoutId(payment.transId) });
    if (registration && payment.mode !== 'no-confirmation') {
      const acknowledged = await deps.postForAnswer(registration.confirmationUrl, callbackBody(payment, '100000.00'), `C2B confirmation of ${payment.transId}`);
      payment.confirmationSent = acknowledged !== undefined;
    }
    return payment;
  }

  /** A customer pays the shortcode from the menu; a `late` one after `lateMs` (answered at once, as pending). */
  function pay(input: { phone: string; account: string; amount: number; mode: C2bMode }): { payment: C2bPayment; done: Promise<C2bPayment> } {
    const payment: C2bPayment = {
      transId: deps.receipt(),
      phone: input.phone,
      account: input.mode === 'wrong-account' ? someCode() : input.account,
      amount: input.mode === 'wrong-amount' ? input.amount + 1 : input.amount,
      mode: input.mode,
      status: 'completed',
      resultCode: 'pending',
      confirmationSent: false,
      createdAt: new Date(),
    };
    payments.unshift(payment);
    if (payments.length > 500) payments.pop();
    if (input.mode !== 'late') return { payment, done: run(payment) };
    const done = new Promise<C2bPayment>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve(run(payment));
      }, deps.lateMs);
      timers.add(timer);
    });
    return { payment, done };
  }

  /** Daraja's C2B routes: Register URL (v1, v2) and the sandbox's simulate (v1, v2). */
  function mount(api: Router) {
    const register = (version: Registration['version']) => (req: Request, res: Response) => {
      if (!deps.bearerValid(req)) return deps.fail(res, 401, '404.001.03', 'Invalid Access Token');
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (String(body.ShortCode ?? '') !== deps.shortcode) return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid ShortCode');
      if (body.ResponseType !== 'Completed' && body.ResponseType !== 'Cancelled') return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid ResponseType');
      for (const field of ['ValidationURL', 'ConfirmationURL'] as const) {
        const url = body[field];
        if (!deps.isCallbackUrl(url) || forbiddenUrlWord(String(url))) return deps.fail(res, 400, '400.002.02', `Bad Request - Invalid ${field}`);
      }
      registration = { validationUrl: String(body.ValidationURL), confirmationUrl: String(body.ConfirmationURL), responseType: body.ResponseType, version };
      res.json({ OriginatorCoversationID: `${randomBytes(4).toString('hex')}-${Date.now()}`, ResponseCode: '0', ResponseDescription: 'success' });
    };
    api.post('/mpesa/c2b/v1/registerurl', register('v1'));
    api.post('/mpesa/c2b/v2/registerurl', register('v2'));
    const simulate = (req: Request, res: Response) => {
      if (!deps.bearerValid(req)) return deps.fail(res, 401, '404.001.03', 'Invalid Access Token');
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (String(body.ShortCode ?? '') !== deps.shortcode) return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid ShortCode');
      if (body.CommandID !== 'CustomerPayBillOnline') return deps.fail(res, 400, '400.002.02', 'Bad Request - Invalid CommandID');
      const parsed = paymentInput({ phone: body.Msisdn, account: body.BillRefNumber, amount: body.Amount });
      if (typeof parsed === 'string') return deps.fail(res, 400, '400.002.02', `Bad Request - Invalid ${parsed}`);
      void pay({ ...parsed, mode: 'normal' }).done;
      res.json({ OriginatorCoversationID: `${randomBytes(4).toString('hex')}-${Date.now()}`, ResponseCode: '0', ResponseDescription: 'Accept the service request successfully.' });
    };
    api.post('/mpesa/c2b/v1/simulate', simulate);
    api.post('/mpesa/c2b/v2/simulate', simulate);
  }

  return {
    mount,
    pay,
    /** The newest payments first (the menu page lists them). */
    payments: () => [...payments],
    registration: () => registration,
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** A menu payment's fields as Daraja checks them; the name of the bad field otherwise. */
export function paymentInput(raw: { phone: unknown; account: unknown; amount: unknown }): { phone: string; account: string; amount: number } | 'Msisdn' | 'BillRefNumber' | 'Amount' {
  const phone = String(raw.phone ?? '').replace(/\s+/g, '');
  if (!/^2547\d{8}$|^2541\d{8}$/.test(phone)) return 'Msisdn';
  const account = String(raw.account ?? '').trim();
  if (account.length < 1 || account.length > 20) return 'BillRefNumber';
  const amount = Number(raw.amount);
  if (!Number.isInteger(amount) || amount < 1 || amount > 250_000) return 'Amount';
  return { phone, account, amount };
}
