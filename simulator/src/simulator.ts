import { randomBytes, randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { errorBody } from '@tukio/shared/error-body';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { createAgents, request } from '@tukio/shared/node/http-request';
import type { Logger } from '@tukio/shared/node/logger';
import {
  darajaPassword,
  darajaTimestamp,
  parseDarajaTimestamp,
  type CallbackItem,
  type StkCallbackBody,
} from '@tukio/shared/daraja-protocol';
import { C2B_MODES, createC2bSimulator, paymentInput, type C2bMode } from './c2b.js';
import { createPullSimulator } from './pull.js';
import { renderLedgerPage, renderMenuPage, renderMessagePage, renderPhonePage, renderPromptPage, PHONE_SCRIPT } from './phone-page.js';
import { createPayoutSimulator, type PaidPrompt } from './payouts.js';

/**
 * Reserved test numbers and what the simulated customer does (docs/payments.md lists them):
 * every other number pays after the delay.
 */
export const TEST_NUMBERS = {
  cancelled: '254700000001',
  insufficientFunds: '254700000002',
  unreachable: '254700000003',
  noCallback: '254700000004',
  manual: '254700000005',
} as const;

export type PromptMode = 'pay' | 'cancel' | 'insufficient' | 'unreachable' | 'silent' | 'manual';

export interface SimulatedPrompt {
  id: string;
  /** The secret of the prompt's own phone page (`<phonePath>/prompt/<token>`), shown only to its buyer. */
  token: string;
  checkoutRequestId: string;
  merchantRequestId: string;
  phone: string;
  amount: number;
  accountReference: string;
  transactionDesc: string;
  callbackUrl: string;
  shortcode: string;
  mode: PromptMode;
  createdAt: Date;
  status: 'pending' | 'completed';
  resultCode?: number;
  resultDesc?: string;
  receipt?: string;
  transactionDate?: string;
  callbackSent?: boolean;
  timer?: NodeJS.Timeout;
}

export interface SimulatorOptions {
  shortcode: string;
  passkey: string;
  consumerKey: string;
  consumerSecret: string;
  /** The API initiator of payouts, reversals and status queries, and its password (SecurityCredential). */
  initiatorName: string;
  initiatorPassword: string;
  /** The shortcode B2C payouts leave from. */
  b2cShortcode: string;
  /** Delay before an automatic outcome (and its callback). */
  delayMs: number;
  /** A manual prompt nobody answers times out with 1037, as a real phone does after about a minute. */
  promptTimeoutMs: number;
  tokenTtlSeconds: number;
  logger: Logger;
  /** Where the phone page posts its forms; default /simulator. */
  phonePath?: string;
  /**
   * Opens the list of every prompt (phones, amounts, ids) and the id-based actions: `X-Simulator-Key`
   * header or `?key=`. Loopback is not enough: in the offline setup the buyers' browsers are loopback too.
   */
  key: string;
  /**
   * The only origins callbacks and results are posted to (the merchant's own callback URLs). A request naming
   * another CallBackURL, ResultURL or QueueTimeOutURL is refused as Daraja refuses a bad one: the simulator's
   * credentials are public, and it must not post to whatever address a stranger names (a loopback service).
   */
  callbackOrigins: readonly string[];
  /** How long a "late" payer from the M-Pesa menu waits before paying (default 10 s). */
  c2bLateMs?: number | undefined;
  /** Rows per Pull Transactions page (default 100; Daraja does not document its own). */
  pullPageSize?: number | undefined;
}

const OUTCOMES: Record<Exclude<PromptMode, 'manual' | 'silent'>, { code: number; desc: string }> = {
  pay: { code: 0, desc: 'The service request is processed successfully.' },
  cancel: { code: 1032, desc: 'Request cancelled by user' },
  insufficient: { code: 1, desc: 'The balance is insufficient for the transaction.' },
  unreachable: { code: 1037, desc: 'DS timeout user cannot be reached' },
};

export function modeForPhone(phone: string): PromptMode {
  switch (phone) {
    case TEST_NUMBERS.cancelled:
      return 'cancel';
    case TEST_NUMBERS.insufficientFunds:
      return 'insufficient';
    case TEST_NUMBERS.unreachable:
      return 'unreachable';
    case TEST_NUMBERS.noCallback:
      return 'silent';
    case TEST_NUMBERS.manual:
      return 'manual';
    default:
      return 'pay';
  }
}

const sameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

function receiptNumber(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = randomBytes(10);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/** 192 random bits: a prompt's page is reachable only by whoever was given its link. */
const promptToken = () => randomBytes(24).toString('base64url');
const PROMPT_TOKEN = /^[A-Za-z0-9_-]{32}$/;

function checkoutId(): string {
  const stamp = darajaTimestamp().slice(2);
  return `ws_CO_${stamp}${randomBytes(8).toString('hex')}`;
}

/**
 * A stand-in for Daraja speaking its HTTP protocol: OAuth, STK push (validated like Daraja),
 * the callback to CallBackURL after a delay, and STK query. `api` is mounted at the root of its own
 * server (server.ts), the base URL a payment service is given; `phone` is the human page at /simulator.
 */
export function createDarajaSimulator(options: SimulatorOptions) {
  const prompts = new Map<string, SimulatedPrompt>();
  const promptsByToken = new Map<string, SimulatedPrompt>();
  /** The pending prompt of each phone, so a push checks the subscriber lock without scanning every prompt. */
  const pendingByPhone = new Map<string, SimulatedPrompt>();
  const tokens = new Map<string, number>();
  /** Every STK payment completed with a receipt, by receipt: never pruned, it is M-Pesa's side of the books. */
  const paid = new Map<string, PaidPrompt & { completedAt: Date }>();
  const phonePath = options.phonePath ?? '/simulator';
  /** Callbacks reuse keep-alive connections, as Daraja's own servers would. */
  const callbackAgents = createAgents(64);
  let closed = false;
  let prunedAt = 0;

  const fail = (res: Response, status: number, errorCode: string, errorMessage: string) =>
    res.status(status).json({ requestId: `${randomBytes(4).toString('hex')}-${Date.now()}`, errorCode, errorMessage });

  /** Forgets prompts completed an hour ago and expired tokens; a full scan at most every 10 s. */
  function prune() {
    if (Date.now() - prunedAt < 10_000) return;
    prunedAt = Date.now();
    const cutoff = Date.now() - 60 * 60 * 1000;
    for (const [id, prompt] of prompts) {
      if (prompt.status !== 'completed' || prompt.createdAt.getTime() >= cutoff) continue;
      prompts.delete(id);
      promptsByToken.delete(prompt.token);
    }
    for (const [token, expiresAt] of tokens) if (expiresAt < Date.now()) tokens.delete(token);
  }

  async function sendCallback(prompt: SimulatedPrompt) {
    const items: CallbackItem[] = [
      { Name: 'Amount', Value: prompt.amount },
      { Name: 'MpesaReceiptNumber', Value: prompt.receipt! },
      { Name: 'Balance' },
      { Name: 'TransactionDate', Value: Number(prompt.transactionDate) },
      { Name: 'PhoneNumber', Value: Number(prompt.phone) },
    ];
    const body: StkCallbackBody = {
      Body: {
        stkCallback: {
          MerchantRequestID: prompt.merchantRequestId,
          CheckoutRequestID: prompt.checkoutRequestId,
          ResultCode: prompt.resultCode!,
          ResultDesc: prompt.resultDesc!,
          ...(prompt.resultCode === 0 ? { CallbackMetadata: { Item: items } } : {}),
        },
      },
    };
    if (await post(prompt.callbackUrl, body, `callback for ${prompt.checkoutRequestId}`)) prompt.callbackSent = true;
  }

  /** One POST of a result to a merchant URL; true when it was answered 2xx. */
  /** An http(s) URL on one of the merchant's callback origins. */
  function callbackAllowed(url: unknown): boolean {
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url) || !URL.canParse(url)) return false;
    return options.callbackOrigins.includes(new URL(url).origin);
  }

  async function post(url: string, body: unknown, what: string): Promise<boolean> {
    return (await postForAnswer(url, body, what)) !== undefined;
  }

  /** One POST to a merchant URL: its JSON answer ({} when not JSON), or undefined when it did not answer 2xx. */
  async function postForAnswer(url: string, body: unknown, what: string, timeoutMs = 15_000): Promise<unknown> {
    // Checked when the request came in too; never posted elsewhere, whatever path led here.
    if (!callbackAllowed(url)) {
      options.logger.error(`simulator: ${what} not sent: ${url} is not one of the callback origins`);
      return undefined;
    }
    try {
      const response = await request(callbackAgents, url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs,
      });
      if (response.status < 200 || response.status >= 300) return undefined;
      try {
        return response.text ? (JSON.parse(response.text) as unknown) : {};
      } catch {
        return {};
      }
    } catch (error) {
      // Daraja does not retry a callback; the merchant must query.
      options.logger.error(`simulator: ${what} failed`, error);
      return undefined;
    }
  }

  /** Completes a prompt once; later answers (a second tap, a timeout) are ignored. */
  function complete(prompt: SimulatedPrompt, code: number, desc: string, withCallback = true) {
    if (prompt.status !== 'pending' || closed) return;
    clearTimeout(prompt.timer);
    prompt.status = 'completed';
    if (pendingByPhone.get(prompt.phone) === prompt) pendingByPhone.delete(prompt.phone);
    prompt.resultCode = code;
    prompt.resultDesc = desc;
    if (code === 0) {
      prompt.receipt = receiptNumber();
      prompt.transactionDate = darajaTimestamp();
      paid.set(prompt.receipt, { receipt: prompt.receipt, amount: prompt.amount, phone: prompt.phone, checkoutRequestId: prompt.checkoutRequestId, completedAt: new Date() });
    }
    if (withCallback) void sendCallback(prompt);
  }

  function schedule(prompt: SimulatedPrompt) {
    if (prompt.mode === 'manual') {
      prompt.timer = setTimeout(() => complete(prompt, OUTCOMES.unreachable.code, OUTCOMES.unreachable.desc), options.promptTimeoutMs);
    } else if (prompt.mode === 'silent') {
      prompt.timer = setTimeout(() => complete(prompt, OUTCOMES.pay.code, OUTCOMES.pay.desc, false), options.delayMs);
    } else {
      const outcome = OUTCOMES[prompt.mode];
      prompt.timer = setTimeout(() => complete(prompt, outcome.code, outcome.desc), options.delayMs);
    }
    prompt.timer.unref?.();
  }

  function bearerValid(req: Request): boolean {
    const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const expiresAt = match ? tokens.get(match[1]!) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  /** Shortcode, Timestamp and Password checked the way Daraja does; returns an error or undefined. */
  function credentialsError(body: Record<string, unknown>): [string, string] | undefined {
    const shortcode = String(body.BusinessShortCode ?? '');
    if (!/^\d{5,7}$/.test(shortcode) || shortcode !== options.shortcode) return ['400.002.02', 'Bad Request - Invalid BusinessShortCode'];
    const timestamp = String(body.Timestamp ?? '');
    const when = parseDarajaTimestamp(timestamp);
    if (!when || Math.abs(when.getTime() - Date.now()) > 60 * 60 * 1000) return ['400.002.02', 'Bad Request - Invalid Timestamp'];
    const expected = darajaPassword(options.shortcode, options.passkey, timestamp);
    if (typeof body.Password !== 'string' || !sameSecret(body.Password, expected)) return ['400.002.02', 'Bad Request - Invalid Password'];
    return undefined;
  }

  const payouts = createPayoutSimulator({
    shortcode: options.shortcode,
    b2cShortcode: options.b2cShortcode,
    initiatorName: options.initiatorName,
    initiatorPassword: options.initiatorPassword,
    delayMs: options.delayMs,
    logger: options.logger,
    fail,
    bearerValid,
    receipt: receiptNumber,
    isCallbackUrl: callbackAllowed,
    post: async (url, body) => {
      await post(url, body, `result to ${new URL(url).pathname.replace(/\/[^/]*$/, '/…')}`);
    },
    paymentByReceipt: (receipt) => paid.get(receipt),
  });

  const c2b = createC2bSimulator({
    shortcode: options.shortcode,
    logger: options.logger,
    lateMs: options.c2bLateMs ?? 10_000,
    fail,
    bearerValid,
    receipt: receiptNumber,
    isCallbackUrl: callbackAllowed,
    // M-Pesa waits about 8 s for a validation answer; a confirmation as long as a callback.
    postForAnswer: (url, body, what) => postForAnswer(url, body, what, what.startsWith('C2B validation') ? 8000 : 15_000),
    record: (payment) => paid.set(payment.receipt, { ...payment, completedAt: new Date() }),
  });

  const api = Router();
  api.use(express.json({ limit: '32kb' }));
  c2b.mount(api);
  const pull = createPullSimulator({ shortcode: options.shortcode, fail, bearerValid, payments: () => c2b.payments(), pageSize: options.pullPageSize ?? 100 });
  pull.mount(api);

  api.get('/oauth/v1/generate', (req, res) => {
    if (req.query.grant_type !== 'client_credentials') return fail(res, 400, '400.008.02', 'Invalid grant type passed');
    const match = /^Basic\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    const [key, secret] = match ? Buffer.from(match[1]!, 'base64').toString('utf8').split(':') : [];
    if (!key || !secret || !sameSecret(key, options.consumerKey) || !sameSecret(secret, options.consumerSecret)) {
      return fail(res, 400, '400.008.01', 'Invalid Authentication passed');
    }
    const token = randomBytes(20).toString('base64url');
    tokens.set(token, Date.now() + options.tokenTtlSeconds * 1000);
    res.json({ access_token: token, expires_in: String(options.tokenTtlSeconds) });
  });

  api.post('/mpesa/stkpush/v1/processrequest', (req, res) => {
    if (!bearerValid(req)) return fail(res, 401, '404.001.03', 'Invalid Access Token');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const credentials = credentialsError(body);
    if (credentials) return fail(res, 400, ...credentials);
    if (body.TransactionType !== 'CustomerPayBillOnline' && body.TransactionType !== 'CustomerBuyGoodsOnline') {
      return fail(res, 400, '400.002.02', 'Bad Request - Invalid TransactionType');
    }
    const amount = Number(body.Amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > 250_000) return fail(res, 400, '400.002.02', 'Bad Request - Invalid Amount');
    const phone = String(body.PhoneNumber ?? '');
    if (!/^2547\d{8}$|^2541\d{8}$/.test(phone) || String(body.PartyA ?? '') !== phone) return fail(res, 400, '400.002.02', 'Bad Request - Invalid PhoneNumber');
    if (String(body.PartyB ?? '') !== options.shortcode) return fail(res, 400, '400.002.02', 'Bad Request - Invalid PartyB');
    const callbackUrl = String(body.CallBackURL ?? '');
    if (!callbackAllowed(callbackUrl)) return fail(res, 400, '400.002.02', 'Bad Request - Invalid CallBackURL');
    const accountReference = String(body.AccountReference ?? '');
    if (accountReference.length < 1 || accountReference.length > 12) return fail(res, 400, '400.002.02', 'Bad Request - Invalid AccountReference');
    const transactionDesc = String(body.TransactionDesc ?? '');
    if (transactionDesc.length < 1 || transactionDesc.length > 13) return fail(res, 400, '400.002.02', 'Bad Request - Invalid TransactionDesc');
    prune();
    if (pendingByPhone.get(phone)?.status === 'pending') {
      return fail(res, 500, '500.001.1001', 'Unable to lock subscriber, a transaction is already in process for the current subscriber');
    }
    const prompt: SimulatedPrompt = {
      id: randomUUID(),
      token: promptToken(),
      checkoutRequestId: checkoutId(),
      merchantRequestId: `${randomBytes(3).toString('hex')}-${randomBytes(4).toString('hex')}-1`,
      phone,
      amount,
      accountReference,
      transactionDesc,
      callbackUrl,
      shortcode: options.shortcode,
      mode: modeForPhone(phone),
      createdAt: new Date(),
      status: 'pending',
    };
    prompts.set(prompt.checkoutRequestId, prompt);
    promptsByToken.set(prompt.token, prompt);
    pendingByPhone.set(phone, prompt);
    schedule(prompt);
    res.json({
      MerchantRequestID: prompt.merchantRequestId,
      CheckoutRequestID: prompt.checkoutRequestId,
      ResponseCode: '0',
      ResponseDescription: 'Success. Request accepted for processing',
      CustomerMessage: 'Success. Request accepted for processing',
      // The simulator's one addition to Daraja's answer: the prompt's secret page, for the payment service to hand its buyer.
      SimulatorPromptPath: promptPath(prompt),
    });
  });

  api.post('/mpesa/stkpushquery/v1/query', (req, res) => {
    if (!bearerValid(req)) return fail(res, 401, '404.001.03', 'Invalid Access Token');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const credentials = credentialsError(body);
    if (credentials) return fail(res, 400, ...credentials);
    const prompt = prompts.get(String(body.CheckoutRequestID ?? ''));
    if (!prompt) return fail(res, 400, '400.002.02', 'Bad Request - Invalid CheckoutRequestID');
    if (prompt.status === 'pending') return fail(res, 500, '500.001.1001', 'The transaction is being processed');
    res.json({
      ResponseCode: '0',
      ResponseDescription: 'The service request has been accepted successsfully',
      MerchantRequestID: prompt.merchantRequestId,
      CheckoutRequestID: prompt.checkoutRequestId,
      ResultCode: String(prompt.resultCode),
      ResultDesc: prompt.resultDesc,
    });
  });

  /**
   * The phone. Each prompt has its own page at /prompt/<token>: only its buyer gets the link (the
   * stkPush answer's `simulatorUrl`), so buyers cannot see or answer each other's prompts. The list
   * of every prompt (HTML at /, JSON at /prompts) and the id-based actions need the simulator key.
   */
  const phone = Router();
  phone.use(express.urlencoded({ extended: false, limit: '4kb' }), express.json({ limit: '4kb' }));

  const list = () => [...prompts.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const promptPath = (prompt: SimulatedPrompt) => `${phonePath}/prompt/${prompt.token}`;
  const view = (prompt: SimulatedPrompt) => ({
    id: prompt.id,
    checkoutRequestId: prompt.checkoutRequestId,
    merchantRequestId: prompt.merchantRequestId,
    phone: prompt.phone,
    amount: prompt.amount,
    receipt: prompt.receipt ?? null,
    callbackSent: Boolean(prompt.callbackSent),
    accountReference: prompt.accountReference,
    status: prompt.status,
    resultCode: prompt.resultCode ?? null,
    resultDesc: prompt.resultDesc ?? null,
    createdAt: prompt.createdAt.toISOString(),
    promptPath: promptPath(prompt),
  });
  const wantsPage = (req: Request) => req.accepts(['html', 'json']) === 'html';
  const PIN_HELP = 'Enter a PIN of 4 to 6 digits (any PIN works in the simulator).';
  const KEY_NEEDED =
    'The list of simulated prompts needs the simulator key (X-Simulator-Key header or ?key=, printed in the payment service log). A buyer opens their own prompt with the link shown in the payment dialog.';
  const NO_PROMPT = 'No such prompt: the link is wrong, or the prompt was answered more than an hour ago.';

  /** The key in `X-Simulator-Key` or `?key=`; refused with a page (the HTML list) or JSON. */
  const requireKey = (refusal: 'page' | 'json'): RequestHandler => (req, res, next) => {
    const given = req.get('x-simulator-key') ?? (typeof req.query.key === 'string' ? req.query.key : '');
    if (given && sameSecret(given, options.key)) return next();
    res.setHeader('Cache-Control', 'no-store');
    if (refusal === 'page' && wantsPage(req)) res.status(401).type('html').send(renderMessagePage(KEY_NEEDED, phonePath));
    else res.status(401).json(errorBody(KEY_NEEDED, 'simulator_refused'));
  };

  /** Pay or cancel, for the prompt's own page (a form: back to that page) or a script (JSON). */
  function answer(req: Request, res: Response, prompt: SimulatedPrompt | undefined, action: unknown) {
    const fromForm = req.is('application/x-www-form-urlencoded');
    if (!prompt || (action !== 'pay' && action !== 'cancel')) {
      if (fromForm) res.status(404).type('html').send(renderMessagePage(NO_PROMPT, phonePath));
      else res.status(404).json(errorBody(NO_PROMPT, 'simulator_refused'));
      return;
    }
    if (prompt.status !== 'pending') {
      const message = 'This prompt was already answered.';
      if (fromForm) res.redirect(303, promptPath(prompt));
      else res.status(409).json(errorBody(message, 'simulator_refused', { prompt: view(prompt) }));
      return;
    }
    if (action === 'pay') {
      const pin = String((req.body as Record<string, unknown> | undefined)?.pin ?? '');
      if (!/^\d{4,6}$/.test(pin)) {
        if (fromForm) res.redirect(303, `${promptPath(prompt)}?error=pin`);
        else res.status(400).json(errorBody(PIN_HELP, 'simulator_refused'));
        return;
      }
      complete(prompt, OUTCOMES.pay.code, OUTCOMES.pay.desc);
    } else {
      complete(prompt, OUTCOMES.cancel.code, OUTCOMES.cancel.desc);
    }
    if (fromForm) res.redirect(303, promptPath(prompt));
    else res.json(view(prompt));
  }

  const byToken = (token: string | undefined) => (token && PROMPT_TOKEN.test(token) ? promptsByToken.get(token) : undefined);

  phone.get('/phone.js', (_req, res) => {
    res.type('application/javascript').send(PHONE_SCRIPT);
  });
  phone.get('/prompt/:token', (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const prompt = byToken(req.params.token);
    const page = wantsPage(req);
    if (!prompt) {
      if (page) res.status(404).type('html').send(renderMessagePage(NO_PROMPT, phonePath));
      else res.status(404).json(errorBody(NO_PROMPT, 'simulator_refused'));
      return;
    }
    if (page) res.type('html').send(renderPromptPage(prompt, phonePath, req.query.error === 'pin' ? PIN_HELP : undefined));
    else res.json(view(prompt));
  });
  phone.post('/prompt/:token/:action', (req, res) => {
    answer(req, res, byToken(req.params.token), req.params.action);
  });

  // Paying from the M-Pesa menu (C2B): a page, and the same as JSON for scripts and tests. No key: anyone may pay a Paybill.
  phone.get('/menu', (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const query = req.query as Record<string, string | undefined>;
    res.type('html').send(renderMenuPage(options.shortcode, c2b.payments(), phonePath, { account: query.account, amount: query.amount, phone: query.phone }));
  });
  phone.post('/menu/pay', async (req, res) => {
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const fromForm = req.is('application/x-www-form-urlencoded');
    const mode = (C2B_MODES as readonly string[]).includes(String(raw.mode ?? 'normal')) ? (String(raw.mode ?? 'normal') as C2bMode) : undefined;
    const parsed = paymentInput({ phone: raw.phone, account: raw.account, amount: raw.amount });
    const pinValid = !fromForm || /^\d{4,6}$/.test(String(raw.pin ?? ''));
    const problem = typeof parsed === 'string' ? `Check the ${parsed === 'Msisdn' ? 'phone number' : parsed === 'BillRefNumber' ? 'account number' : 'amount'}.` : !mode ? 'Unknown mode.' : !pinValid ? PIN_HELP : undefined;
    if (problem || typeof parsed === 'string' || !mode) {
      if (fromForm) res.status(400).type('html').send(renderMenuPage(options.shortcode, c2b.payments(), phonePath, { phone: String(raw.phone ?? ''), account: String(raw.account ?? ''), amount: String(raw.amount ?? ''), error: problem }));
      else res.status(400).json(errorBody(problem ?? 'Not a valid payment.', 'simulator_refused'));
      return;
    }
    const { payment, done } = c2b.pay({ ...parsed, mode });
    if (fromForm) {
      // The page shows the outcome: after validation and confirmation, or at once for a late payer.
      if (mode !== 'late') await done;
      res.redirect(303, `${phonePath}/menu`);
      return;
    }
    res.json(mode === 'late' ? payment : await done);
  });
  phone.get('/menu/payments', requireKey('json'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(c2b.payments());
  });

  payouts.mountControl(phone, requireKey('json'));
  // M-Pesa's side of the books: JSON for the audit (`npm run audit:payments`), a readable page in a browser.
  phone.get('/ledger', requireKey('page'), (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const books = payouts.ledger([...paid.values()]);
    // JSON unless HTML is asked for by name: a script's `*/*` (the audit's fetch) gets the books it parses.
    if (req.accepts(['json', 'html']) === 'html') res.type('html').send(renderLedgerPage(books, phonePath));
    else res.json(books);
  });

  phone.get('/', requireKey('page'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(renderPhonePage(list().slice(0, 50), phonePath));
  });
  phone.get('/prompts', requireKey('json'), (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(list().map(view));
  });
  phone.post('/prompts/:id/:action', requireKey('json'), (req, res) => {
    answer(req, res, [...prompts.values()].find((candidate) => candidate.id === req.params.id), req.params.action);
  });

  payouts.mount(api);

  return {
    api,
    phone,
    prompts,
    payouts,
    c2b,
    pull,
    /** M-Pesa's side of the books (GET /simulator/ledger). */
    ledger: () => payouts.ledger([...paid.values()]),
    /** The path of a prompt's own phone page (its secret link), for the buyer who made the push. */
    promptPath(checkoutRequestId: string): string | undefined {
      const prompt = prompts.get(checkoutRequestId);
      return prompt ? promptPath(prompt) : undefined;
    },
    /** Forgets every access token, as if they had all expired (tests of the client's refresh). */
    revokeTokens() {
      tokens.clear();
    },
    close() {
      closed = true;
      for (const prompt of prompts.values()) clearTimeout(prompt.timer);
      payouts.close();
      c2b.close();
      callbackAgents.destroy();
    },
  };
}

export type DarajaSimulator = ReturnType<typeof createDarajaSimulator>;
