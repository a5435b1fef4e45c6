import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';
import { SAFARICOM_CALLBACK_IPS } from '@tukio/shared/daraja-protocol';
import { booleanFlag, ConfigError, corsOriginsOf, logLevel, metricsToken, nodeEnv, optionalString, optionalUrl, parseEnv, port, publicUrlOf, urlSafeSecret, withoutTrailingSlash } from '@tukio/shared/node/env';
import { readOrCreateSecret } from '@tukio/shared/node/secret';
import { forbiddenUrlWord } from '@tukio/shared/internal-c2b';
import { z } from 'zod';
import { mpesaPublicKey, securityCredential } from './daraja/security-credential.js';

export { ConfigError };

/** `196.201.214.200` or `196.201.212.0/24` (IPv4 or IPv6, a prefix within the family's bits). */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Where the Paybill callbacks are mounted on this service (no word Daraja refuses in C2B URLs). */
export const PAYBILL_CALLBACK_PATH = '/hooks/paybill';

const envSchema = z.object({
  NODE_ENV: nodeEnv,
  PORT: port(5000),
  PAYMENT_PORT: port(27684),
  /**
   * The interface the payment service listens on: loopback by default, as the browsers reach it through the API
   * server. Containers and balanced instances on other hosts set 0.0.0.0.
   */
  PAYMENT_HOST: z.string().trim().regex(/^[\w.:-]+$/, 'must be an address or a host name, e.g. 127.0.0.1 or 0.0.0.0').default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  /** Where the API server listens (internal calls). Default http://127.0.0.1:$PORT. */
  API_URL: optionalUrl,
  INTERNAL_API_KEY: optionalString,
  PUBLIC_URL: optionalUrl,
  CORS_ORIGINS: optionalString,
  /** How this service is reached from outside; the default callback URL is built from it. */
  PAYMENT_PUBLIC_URL: optionalUrl,
  DARAJA_BASE_URL: optionalUrl,
  DARAJA_CONSUMER_KEY: optionalString,
  DARAJA_CONSUMER_SECRET: optionalString,
  DARAJA_SHORTCODE: optionalString.pipe(z.string().regex(/^\d{5,7}$/, 'must be 5 to 7 digits').optional()),
  DARAJA_PASSKEY: optionalString,
  /** Public URL of the callback route without the secret segment, e.g. https://pay.example.com/api/mpesa/callback. */
  DARAJA_CALLBACK_URL: optionalUrl,
  DARAJA_TIMEOUT_MS: z.coerce.number().int().positive().max(120_000).default(15_000),
  /** Refunds (B2C payouts, reversals, Transaction Status): the API initiator and the shortcode payouts leave from. */
  DARAJA_INITIATOR_NAME: optionalString.pipe(z.string().max(100).optional()),
  /** The initiator's password already encrypted (base64), as the Daraja portal's credential tool gives it. */
  DARAJA_SECURITY_CREDENTIAL: optionalString.pipe(z.string().regex(/^[A-Za-z0-9+/]{40,}={0,2}$/, 'must be the base64 encrypted credential').optional()),
  /** …or the password in clear with the M-Pesa certificate: encrypted here at start. */
  DARAJA_INITIATOR_PASSWORD: optionalString,
  DARAJA_CERT_PATH: optionalString,
  DARAJA_B2C_SHORTCODE: optionalString.pipe(z.string().regex(/^\d{5,9}$/, 'must be 5 to 9 digits').optional()),
  CALLBACK_SECRET: urlSafeSecret,
  /**
   * Who may post M-Pesa callbacks: comma-separated addresses and CIDR ranges, `safaricom` for Safaricom's
   * published callback addresses. Unset: any source (the secret path and the STK query still guard).
   */
  CALLBACK_ALLOWED_IPS: optionalString.pipe(
    z
      .string()
      .max(4000)
      .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
      .refine((entries) => entries.every((entry) => entry === 'safaricom' || isAddressOrRange(entry)), 'must be IP addresses, CIDR ranges or "safaricom", comma-separated')
      .transform((entries) => entries.flatMap((entry) => (entry === 'safaricom' ? [...SAFARICOM_CALLBACK_IPS] : [entry])))
      .optional(),
  ),
  /**
   * true: DARAJA_BASE_URL is Tukio's Daraja simulator (the `simulator` workspace; `npm start` runs it and sets
   * this when no Daraja credentials are given). Buyers are then handed its phone-page links, DARAJA_CALLBACK_URL
   * may be left to this service's own address, and the audit reads the simulator's ledger. `auto`, the former
   * default that older .env files still carry, reads as false here (`npm start` decides by the credentials).
   */
  DARAJA_SIMULATOR: z.preprocess((value) => (value === undefined || value === 'auto' ? 'false' : value), booleanFlag),
  /** Opens the simulator's ledger for the audit; unset = DATA_DIR/simulator-key (the simulator's default too). */
  SIMULATOR_KEY: urlSafeSecret,
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
  /**
   * Who runs the reconciler's passes: `local` (this instance's own timer, every RECONCILE_INTERVAL_MS) or `jobs`
   * (the API server's job queue asks one payment instance per period, POST /internal/passes/reconcile; set
   * PAYMENT_PASSES=jobs on the API server too).
   */
  PAYMENT_PASSES: z.enum(['local', 'jobs']).default('local'),
  /** The first wait before an organiser payout's or a refund's result is delivered to the API server again; it doubles up to 5 min. */
  PAYOUT_RESULT_RETRY_MS: z.coerce.number().int().min(10).max(300_000).default(1000),
  /**
   * Paybill (docs/decisions/paybill.md): register the validation and confirmation URLs with Daraja at start
   * (C2B Register URL v2). false: not registered here (e.g. registered once by hand in production).
   */
  C2B_REGISTER: booleanFlag.default(true),
  /** What M-Pesa does when the validation URL does not answer in time: `Completed` (the payment goes through) or `Cancelled`. */
  C2B_RESPONSE_TYPE: z.enum(['Completed', 'Cancelled']).default('Completed'),
  /**
   * Public base of the Paybill callbacks, e.g. https://pay.example.com/hooks/paybill (`/<secret>/validation` and
   * `/<secret>/confirmation` are appended). Daraja refuses URLs containing mpesa, safaricom, exec, cmd, sql, query…
   * Unset: DARAJA_CALLBACK_URL's (or PAYMENT_PUBLIC_URL's) origin + /hooks/paybill, else this service's own address.
   */
  C2B_CALLBACK_BASE_URL: optionalUrl,
  /**
   * Reconciliation (docs/decisions/reconciliation.md): the MSISDN on the paybill shortcode's KYC record, which
   * Daraja's Pull Transactions registration needs (e.g. 254722000000). Unset: no pulling (the simulator's test
   * number when the simulator stands in for Daraja).
   */
  PULL_NOMINATED_NUMBER: z
    .string()
    .regex(/^(0|254)\d{9}$/, 'PULL_NOMINATED_NUMBER must be a phone number like 254722000000')
    .optional(),
  TRUST_PROXY: booleanFlag.default(false),
  LOG_LEVEL: logLevel,
  METRICS_TOKEN: metricsToken,
});

/** Every variable the payment service reads (documented in .env.example: checked by a test). */
export const PAYMENT_ENV_VARIABLES = Object.keys(envSchema.shape);

export interface DarajaConfig {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  timeoutMs: number;
  /** What refunds need; undefined = refunds are not configured (they stay due on the API server). */
  refunds: RefundCredentials | undefined;
}

export interface RefundCredentials {
  initiatorName: string;
  b2cShortcode: string;
  /** Base64 SecurityCredential, given or encrypted at start from the password and the certificate. */
  securityCredential: string;
}

export interface PaymentConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  /** The interface it listens on (PAYMENT_HOST). */
  host: string;
  dataDir: string;
  apiUrl: string;
  internalApiKey: string;
  corsOrigins: string[];
  publicUrl: string;
  /** How browsers reach this service (PAYMENT_PUBLIC_URL); undefined = the host a request came to. */
  paymentPublicUrl: string | undefined;
  /** Base of the callback route; `/<callbackSecret>` is appended. Undefined = this service's own URL. */
  callbackBaseUrl: string | undefined;
  callbackSecret: string;
  /** Paybill payments (docs/decisions/paybill.md). */
  c2b: { register: boolean; responseType: 'Completed' | 'Cancelled'; callbackBaseUrl: string | undefined };
  /** Daraja's Pull Transactions for reconciliation (docs/decisions/reconciliation.md); undefined = not configured. */
  pull: { nominatedNumber: string } | undefined;
  /** Addresses and CIDR ranges allowed to post M-Pesa callbacks; undefined = any. */
  callbackAllowedIps: string[] | undefined;
  daraja: DarajaConfig;
  /**
   * `enabled`: Daraja (daraja.baseUrl) is Tukio's simulator, not Safaricom: its prompts' phone-page links go to
   * the buyers. `key` opens its ledger for the audit (empty when disabled).
   */
  simulator: {
    enabled: boolean;
    key: string;
  };
  reconcile: { intervalMs: number; afterSeconds: number };
  /** Organiser payouts and refunds: the first wait before a result the API server did not acknowledge is delivered again. */
  payouts: { resultRetryMs: number };
  /**
   * `local`: the passes above run on this instance's timers. `jobs`: the API server's job queue asks for
   * each (once per period across instances); only the journal replay stays on this instance's timer.
   */
  passes: 'local' | 'jobs';
  trustProxy: boolean;
  logLevel: 'silent' | 'error' | 'info';
  /** GET /metrics needs `Authorization: Bearer <metricsToken>`; undefined = metrics disabled (404). */
  metricsToken: string | undefined;
}

const REFUND_VARIABLES = ['DARAJA_INITIATOR_NAME', 'DARAJA_SECURITY_CREDENTIAL', 'DARAJA_INITIATOR_PASSWORD', 'DARAJA_CERT_PATH', 'DARAJA_B2C_SHORTCODE'] as const;

/**
 * The refund credentials with real Daraja: all of them or none (refunds off). The SecurityCredential is
 * given, or encrypted here once from the password and the certificate (checked at start, not at the first refund).
 */
function refundCredentials(env: Partial<Record<(typeof REFUND_VARIABLES)[number], string>>): RefundCredentials | undefined {
  const set = REFUND_VARIABLES.filter((name) => env[name]);
  if (set.length === 0) return undefined;
  const invalid = (problem: string) => new ConfigError(`Invalid payment service configuration: ${problem}`);
  if (!env.DARAJA_INITIATOR_NAME || !env.DARAJA_B2C_SHORTCODE) {
    throw invalid(`refunds need DARAJA_INITIATOR_NAME and DARAJA_B2C_SHORTCODE with DARAJA_SECURITY_CREDENTIAL (or DARAJA_INITIATOR_PASSWORD and DARAJA_CERT_PATH); only ${set.join(', ')} set`);
  }
  if (env.DARAJA_SECURITY_CREDENTIAL) {
    if (env.DARAJA_INITIATOR_PASSWORD || env.DARAJA_CERT_PATH) throw invalid('set DARAJA_SECURITY_CREDENTIAL or DARAJA_INITIATOR_PASSWORD with DARAJA_CERT_PATH, not both');
    return { initiatorName: env.DARAJA_INITIATOR_NAME, b2cShortcode: env.DARAJA_B2C_SHORTCODE, securityCredential: env.DARAJA_SECURITY_CREDENTIAL };
  }
  if (!env.DARAJA_INITIATOR_PASSWORD || !env.DARAJA_CERT_PATH) throw invalid('refunds need DARAJA_SECURITY_CREDENTIAL, or DARAJA_INITIATOR_PASSWORD and DARAJA_CERT_PATH together');
  let credential: string;
  try {
    credential = securityCredential(env.DARAJA_INITIATOR_PASSWORD, mpesaPublicKey(readFileSync(path.resolve(env.DARAJA_CERT_PATH))));
  } catch (error) {
    throw invalid(`DARAJA_CERT_PATH: cannot use ${env.DARAJA_CERT_PATH} as the M-Pesa certificate (${error instanceof Error ? error.message : String(error)})`);
  }
  return { initiatorName: env.DARAJA_INITIATOR_NAME, b2cShortcode: env.DARAJA_B2C_SHORTCODE, securityCredential: credential };
}

export function loadPaymentConfig(source: NodeJS.ProcessEnv = process.env): PaymentConfig {
  const env = parseEnv(envSchema, source, 'payment service configuration');
  const dataDir = path.resolve(env.DATA_DIR);
  const credentials = [env.DARAJA_CONSUMER_KEY, env.DARAJA_CONSUMER_SECRET, env.DARAJA_SHORTCODE, env.DARAJA_PASSKEY];
  if (!credentials.every(Boolean)) {
    throw new ConfigError(
      'Invalid payment service configuration: DARAJA_CONSUMER_KEY, DARAJA_CONSUMER_SECRET, DARAJA_SHORTCODE and DARAJA_PASSKEY are required (`npm start` runs the Daraja simulator and sets them when none are given)',
    );
  }
  const simulator = env.DARAJA_SIMULATOR;
  if (simulator && !env.DARAJA_BASE_URL) {
    throw new ConfigError('Invalid payment service configuration: DARAJA_SIMULATOR=true needs DARAJA_BASE_URL, the address of the Daraja simulator');
  }
  if (!simulator && !env.DARAJA_CALLBACK_URL) {
    throw new ConfigError('Invalid payment service configuration: DARAJA_CALLBACK_URL is required with real Daraja credentials (a public https URL that reaches /api/mpesa/callback)');
  }
  const refunds = refundCredentials(env);
  if (refunds && env.DARAJA_CALLBACK_URL && !/\/callback\/?$/.test(env.DARAJA_CALLBACK_URL)) {
    // The refund results come to its siblings (…/b2c/result/<secret>, …/reversal/result/<secret>, …).
    throw new ConfigError('Invalid payment service configuration: DARAJA_CALLBACK_URL must end in /callback (the URL of /api/mpesa/callback) when refunds are configured');
  }
  const daraja: DarajaConfig = {
    baseUrl: withoutTrailingSlash(env.DARAJA_BASE_URL ?? 'https://sandbox.safaricom.co.ke'),
    consumerKey: env.DARAJA_CONSUMER_KEY!,
    consumerSecret: env.DARAJA_CONSUMER_SECRET!,
    shortcode: env.DARAJA_SHORTCODE!,
    passkey: env.DARAJA_PASSKEY!,
    timeoutMs: env.DARAJA_TIMEOUT_MS,
    refunds,
  };

  const publicUrl = publicUrlOf(env);
  const corsOrigins = corsOriginsOf(env.CORS_ORIGINS, publicUrl);
  const paymentPublicUrl = env.PAYMENT_PUBLIC_URL && withoutTrailingSlash(env.PAYMENT_PUBLIC_URL);

  return {
    env: env.NODE_ENV,
    port: env.PAYMENT_PORT,
    host: env.PAYMENT_HOST,
    dataDir,
    apiUrl: withoutTrailingSlash(env.API_URL ?? `http://127.0.0.1:${env.PORT}`),
    internalApiKey: env.INTERNAL_API_KEY ?? readOrCreateSecret(dataDir, 'internal-api-key'),
    corsOrigins,
    publicUrl,
    paymentPublicUrl,
    callbackBaseUrl: env.DARAJA_CALLBACK_URL ? withoutTrailingSlash(env.DARAJA_CALLBACK_URL) : paymentPublicUrl && `${paymentPublicUrl}/api/mpesa/callback`,
    callbackSecret: env.CALLBACK_SECRET ?? readOrCreateSecret(dataDir, 'mpesa-callback-secret'),
    callbackAllowedIps: env.CALLBACK_ALLOWED_IPS,
    c2b: { register: env.C2B_REGISTER, responseType: env.C2B_RESPONSE_TYPE, callbackBaseUrl: paybillBaseUrl(env.C2B_CALLBACK_BASE_URL ?? env.DARAJA_CALLBACK_URL ?? paymentPublicUrl, env.C2B_CALLBACK_BASE_URL !== undefined) },
    pull: env.PULL_NOMINATED_NUMBER ? { nominatedNumber: env.PULL_NOMINATED_NUMBER } : simulator ? { nominatedNumber: '254708374149' } : undefined,
    daraja,
    simulator: {
      enabled: simulator,
      key: simulator ? (env.SIMULATOR_KEY ?? readOrCreateSecret(dataDir, 'simulator-key')) : '',
    },
    reconcile: { intervalMs: env.RECONCILE_INTERVAL_MS, afterSeconds: env.RECONCILE_AFTER_SECONDS },
    payouts: { resultRetryMs: env.PAYOUT_RESULT_RETRY_MS },
    passes: env.PAYMENT_PASSES,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
  };
}

/**
 * The Paybill callbacks' public base: given as it is, or the origin of the STK callback URL (whose path names
 * M-Pesa, which Daraja refuses in C2B URLs) + /hooks/paybill. A word Daraja refuses stops the start.
 */
function paybillBaseUrl(url: string | undefined, given: boolean): string | undefined {
  if (!url) return undefined;
  const base = given ? withoutTrailingSlash(url) : `${new URL(url).origin}${PAYBILL_CALLBACK_PATH}`;
  const word = forbiddenUrlWord(base);
  if (word) throw new ConfigError(`Invalid payment service configuration: the Paybill callback URL ${base} contains "${word}", which Daraja refuses (set C2B_CALLBACK_BASE_URL)`);
  return base;
}
