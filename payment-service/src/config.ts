import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const optionalUrl = optionalString.pipe(z.url({ protocol: /^https?$/ }).optional());

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  PAYMENT_PORT: z.coerce.number().int().min(0).max(65535).default(27684),
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
  CALLBACK_SECRET: optionalString.pipe(z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be 16-128 URL-safe characters').optional()),
  /** auto (default): the simulator runs when no Daraja credentials are set. */
  DARAJA_SIMULATOR: z.enum(['auto', 'true', 'false', '1', '0']).default('auto'),
  SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  SIMULATOR_PROMPT_TIMEOUT_MS: z.coerce.number().int().positive().max(3_600_000).default(60_000),
  SIMULATOR_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().max(86_400).default(3599),
  /** Opens the simulator's list of every prompt; unset = generated in DATA_DIR/simulator-key. */
  SIMULATOR_KEY: optionalString.pipe(z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be 16-128 URL-safe characters').optional()),
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
  CONFIRM_QUERY_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(15),
  STK_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(10 * 60 * 1000),
  STK_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  STK_RATE_LIMIT_PER_USER: z.coerce.number().int().positive().default(10),
  TRUST_PROXY: booleanFlag.default(false),
  LOG_LEVEL: z.enum(['silent', 'error', 'info']).default('info'),
  /** Bearer token Prometheus sends to GET /metrics; unset = the endpoint answers 404. */
  METRICS_TOKEN: optionalString.pipe(z.string().regex(/^\S{16,256}$/, 'must be 16-256 characters without spaces').optional()),
});

/** Every variable the payment service reads (documented in .env.example: checked by a test). */
export const PAYMENT_ENV_VARIABLES = Object.keys(envSchema.shape);

export interface DarajaConfig {
  baseUrl: string | undefined;
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  timeoutMs: number;
}

export interface PaymentConfig {
  env: 'development' | 'production' | 'test';
  port: number;
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
  daraja: DarajaConfig;
  /**
   * When true the Daraja simulator is mounted at /simulator/daraja and the client talks to it; never
   * with real Daraja credentials. `key` opens its list of every prompt (empty when disabled).
   */
  simulator: { enabled: boolean; delayMs: number; promptTimeoutMs: number; tokenTtlSeconds: number; key: string };
  reconcile: { intervalMs: number; afterSeconds: number };
  confirmQueryAfterSeconds: number;
  stkRateLimit: { windowMs: number; perIp: number; perUser: number };
  trustProxy: boolean;
  logLevel: 'silent' | 'error' | 'info';
  /** GET /metrics needs `Authorization: Bearer <metricsToken>`; undefined = metrics disabled (404). */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {}

/** Shared with the API server: whichever starts first generates the secret under DATA_DIR. */
function persistedSecret(dataDir: string, fileName: string): string {
  const file = path.join(dataDir, fileName);
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}

/** The simulator's own credentials; harmless because it only ever talks to itself. */
export const SIMULATOR_CREDENTIALS = {
  consumerKey: 'tukio-simulator-key',
  consumerSecret: 'tukio-simulator-secret',
  shortcode: '174379',
  passkey: 'tukio-simulator-passkey',
};

export function loadPaymentConfig(source: NodeJS.ProcessEnv = process.env): PaymentConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`Invalid payment service configuration: ${problems}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const credentials = [env.DARAJA_CONSUMER_KEY, env.DARAJA_CONSUMER_SECRET, env.DARAJA_SHORTCODE, env.DARAJA_PASSKEY];
  const hasCredentials = credentials.some(Boolean);
  if (hasCredentials && !credentials.every(Boolean)) {
    throw new ConfigError(
      'Invalid payment service configuration: DARAJA_CONSUMER_KEY, DARAJA_CONSUMER_SECRET, DARAJA_SHORTCODE and DARAJA_PASSKEY must be set together',
    );
  }
  const simulatorFlag = env.DARAJA_SIMULATOR;
  const simulator = simulatorFlag === 'auto' ? !hasCredentials : simulatorFlag === 'true' || simulatorFlag === '1';
  if (simulator && hasCredentials) {
    throw new ConfigError('Invalid payment service configuration: DARAJA_SIMULATOR=true cannot be combined with the DARAJA_* credentials (the simulator is never mounted next to real M-Pesa); unset one of them');
  }
  if (!simulator && !hasCredentials) {
    throw new ConfigError('Invalid payment service configuration: DARAJA_SIMULATOR=false needs the DARAJA_* credentials');
  }
  if (!simulator && !env.DARAJA_CALLBACK_URL) {
    throw new ConfigError('Invalid payment service configuration: DARAJA_CALLBACK_URL is required with real Daraja credentials (a public https URL that reaches /api/mpesa/callback)');
  }
  const daraja: DarajaConfig = hasCredentials && !simulator
    ? {
        baseUrl: (env.DARAJA_BASE_URL ?? 'https://sandbox.safaricom.co.ke').replace(/\/+$/, ''),
        consumerKey: env.DARAJA_CONSUMER_KEY!,
        consumerSecret: env.DARAJA_CONSUMER_SECRET!,
        shortcode: env.DARAJA_SHORTCODE!,
        passkey: env.DARAJA_PASSKEY!,
        timeoutMs: env.DARAJA_TIMEOUT_MS,
      }
    : { baseUrl: env.DARAJA_BASE_URL?.replace(/\/+$/, ''), ...SIMULATOR_CREDENTIALS, timeoutMs: env.DARAJA_TIMEOUT_MS };

  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const corsOrigins = (env.CORS_ORIGINS ?? `${publicUrl},http://localhost:5173`)
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);

  return {
    env: env.NODE_ENV,
    port: env.PAYMENT_PORT,
    dataDir,
    apiUrl: (env.API_URL ?? `http://127.0.0.1:${env.PORT}`).replace(/\/+$/, ''),
    internalApiKey: env.INTERNAL_API_KEY ?? persistedSecret(dataDir, 'internal-api-key'),
    corsOrigins,
    publicUrl,
    paymentPublicUrl: env.PAYMENT_PUBLIC_URL?.replace(/\/+$/, ''),
    callbackBaseUrl: (env.DARAJA_CALLBACK_URL ?? (env.PAYMENT_PUBLIC_URL ? `${env.PAYMENT_PUBLIC_URL.replace(/\/+$/, '')}/api/mpesa/callback` : undefined))?.replace(/\/+$/, ''),
    callbackSecret: env.CALLBACK_SECRET ?? persistedSecret(dataDir, 'mpesa-callback-secret'),
    daraja,
    simulator: {
      enabled: simulator,
      delayMs: env.SIMULATOR_DELAY_MS,
      promptTimeoutMs: env.SIMULATOR_PROMPT_TIMEOUT_MS,
      tokenTtlSeconds: env.SIMULATOR_TOKEN_TTL_SECONDS,
      key: simulator ? (env.SIMULATOR_KEY ?? persistedSecret(dataDir, 'simulator-key')) : '',
    },
    reconcile: { intervalMs: env.RECONCILE_INTERVAL_MS, afterSeconds: env.RECONCILE_AFTER_SECONDS },
    confirmQueryAfterSeconds: env.CONFIRM_QUERY_AFTER_SECONDS,
    stkRateLimit: { windowMs: env.STK_RATE_LIMIT_WINDOW_MS, perIp: env.STK_RATE_LIMIT_PER_IP, perUser: env.STK_RATE_LIMIT_PER_USER },
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
  };
}
