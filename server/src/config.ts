import path from 'node:path';
import { isIP } from 'node:net';
import { booleanFlag, ConfigError, corsOriginsOf, logLevel, metricsToken, nodeEnv, optionalString, optionalUrl, parseEnv, port, publicUrlOf, redisCommandTimeoutMs, redisKeyPrefix, withoutTrailingSlash } from '@tukio/shared/node/env';
import { readOrCreateSecret } from '@tukio/shared/node/secret';
import { z } from 'zod';
import { parseMpesaTariff, type FeeRule, type MpesaTariff } from './modules/fees/index.js';

export { ConfigError };

const envSchema = z.object({
  NODE_ENV: nodeEnv,
  PORT: port(5000),
  PAYMENT_PORT: port(27684),
  /** Where this server reaches the payment service it serves at /pay; default http://127.0.0.1:$PAYMENT_PORT. */
  PAYMENT_URL: optionalUrl,
  /** Where this server reaches the Daraja simulator whose phone pages it serves at /simulator (`npm start` sets it); unset = none. */
  DARAJA_SIMULATOR_URL: optionalUrl,
  /**
   * The Paybill number buyers may pay an order to from the M-Pesa menu, with its order code as the account number
   * (docs/decisions/paybill.md): default DARAJA_SHORTCODE (`npm start` sets it for the simulator); unset = not offered.
   */
  PAYBILL_SHORTCODE: optionalString.pipe(z.string().regex(/^\d{5,7}$/, 'must be 5 to 7 digits').optional()),
  DARAJA_SHORTCODE: optionalString.pipe(z.string().regex(/^\d{5,7}$/, 'must be 5 to 7 digits').optional()),
  /** Milliseconds the checkout waits for the payment service's answer (an STK push waits on M-Pesa). */
  PAYMENT_PROXY_TIMEOUT_MS: z.coerce.number().int().positive().max(120_000).default(45_000),
  /** A buyer's poll this many seconds after the push, still pending, asks M-Pesa (STK query) too: the callback may be late or lost. */
  CONFIRM_QUERY_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).default(15),
  /** stkPush budgets: per address and per account in STK_RATE_LIMIT_WINDOW_MS. */
  STK_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(10 * 60 * 1000),
  STK_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  STK_RATE_LIMIT_PER_USER: z.coerce.number().int().positive().default(10),
  /** Prompts one phone may be sent per STK_RATE_LIMIT_PHONE_WINDOW_MS, whoever asks: new accounts cannot keep prompting a stranger's phone. */
  STK_RATE_LIMIT_PER_PHONE: z.coerce.number().int().positive().default(30),
  STK_RATE_LIMIT_PHONE_WINDOW_MS: z.coerce.number().int().positive().default(60 * 60 * 1000),
  /** stkPush calls per account (a guest's: per phone) per day, beside the short window's STK_RATE_LIMIT_PER_USER. */
  STK_RATE_LIMIT_PER_USER_DAY: z.coerce.number().int().positive().default(40),
  /** Set when the client is built to call the payment service elsewhere: its origin joins the CSP's connect-src. */
  VITE_PAYMENT_URL: optionalUrl,
  DATA_DIR: z.string().default('./data'),
  /**
   * Event images on S3-compatible object storage instead of DATA_DIR/uploads: set S3_BUCKET with
   * S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (all three, or none). S3_ENDPOINT: a non-AWS server
   * (MinIO, …), addressed path-style. S3_PUBLIC_URL: where browsers load the bucket's objects from;
   * unset, the API streams them at /uploads.
   */
  S3_BUCKET: optionalString.pipe(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)').optional()),
  S3_REGION: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: optionalUrl,
  DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  /**
   * How Socket.IO uses Redis. auto: sharded pub/sub (a channel per room) on Redis 7+, classic pub/sub
   * before. classic: for Redis-compatible servers that report 7+ but lack SSUBSCRIBE (some proxies).
   */
  SOCKET_REDIS_ADAPTER: z.enum(['auto', 'sharded', 'classic']).default('auto'),
  /** Starts every rate-limit and chat-budget key this deployment keeps in Redis, so deployments can share one. */
  REDIS_KEY_PREFIX: redisKeyPrefix,
  /** Redis unanswered this long counts as down: requests fail over or answer 503 instead of waiting (docs/decisions/scale-out.md). */
  REDIS_COMMAND_TIMEOUT_MS: redisCommandTimeoutMs,
  JWT_SECRET: optionalString,
  JWT_EXPIRES_IN: z.string().default('7d'),
  /** bcrypt's cost factor for passwords (each step doubles the work): below 10 only with NODE_ENV=test (the test servers use 4). */
  PASSWORD_HASH_COST: z.coerce.number().int().min(4).max(15).default(10),
  PUBLIC_URL: optionalString,
  CORS_ORIGINS: optionalString,
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Tukio <no-reply@tukio.local>'),
  ADMIN_USERNAME: optionalString,
  ADMIN_EMAIL: optionalString,
  ADMIN_PASSWORD: optionalString,
  CONTACT_EMAIL: optionalString,
  SEED_DEMO: booleanFlag.default(true),
  CLIENT_DIST: optionalString,
  INTERNAL_API_KEY: optionalString,
  /** Minutes a pending paid order holds its seats; longer than the 60 s M-Pesa PIN window. */
  HOLD_MINUTES: z.coerce.number().positive().max(24 * 60).default(5),
  /** Ed25519 private key (PKCS#8 PEM, or its base64) signing ticket codes; generated under DATA_DIR when unset. */
  TICKET_SIGNING_KEY: optionalString,
  /** Milliseconds before a refund whose attempt failed is sent again; doubles with each attempt, at most one hour. */
  REFUND_RETRY_BASE_MS: z.coerce.number().int().min(1).max(60 * 60 * 1000).default(60_000),
  /** Attempts a refund gets before it is left `failed` for an administrator. */
  /**
   * The platform fee a fresh install starts with (docs/decisions/fees.md), per paid ticket: a percent of its price
   * (up to two decimals), plus fixed shillings, at least a minimum. Written once, when no fee was ever set; after
   * that an administrator sets it (PUT /api/admin/fees). Default 0 % + 0, minimum 0: no fee.
   */
  PLATFORM_FEE_PERCENT: z.coerce.number().min(0).max(100).refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, 'at most two decimals').default(0),
  PLATFORM_FEE_FIXED: z.coerce.number().int().min(0).max(100_000).default(0),
  PLATFORM_FEE_MINIMUM: z.coerce.number().int().min(0).max(100_000).default(0),
  /** M-Pesa's charges to the business per band (fees/mpesa-tariff.ts): unset for the documented example, `none`, or JSON. */
  MPESA_TARIFF: optionalString,
  REFUND_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /** Days after an event ends (the end of the Nairobi day it starts) before its net is paid to its organiser. */
  PAYOUT_DELAY_DAYS: z.coerce.number().int().min(0).max(90).default(3),
  /** Percent of an event's net sales an organiser an administrator trusts may be paid before then. */
  EARLY_PAYOUT_SHARE: z.coerce.number().int().min(0).max(100).default(50),
  /** Whole shillings: less than this payable is not sent (it waits for more). At least M-Pesa's own minimum. */
  PAYOUT_MIN_AMOUNT: z.coerce.number().int().min(10).max(250_000).default(100),
  /** Seconds a payout attempt waits for M-Pesa's result before its status is asked. */
  PAYOUT_RESULT_WAIT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Attempts a payout gets (each failed one waits PAYOUT_RETRY_BASE_MS, doubling) before it is left failed for an administrator. */
  PAYOUT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(4),
  PAYOUT_RETRY_BASE_MS: z.coerce.number().int().min(1).max(24 * 60 * 60 * 1000).default(15 * 60 * 1000),
  /** Milliseconds between runs of the payouts job (once per period across instances); 0: only when asked. */
  PAYOUT_JOB_MS: z.coerce.number().int().min(0).max(24 * 60 * 60 * 1000).default(5 * 60 * 1000),
  /** Days between a confirmed "Delete my account" and its erasure: the undo link works until then (docs/decisions/data-rights.md). */
  ACCOUNT_DELETION_GRACE_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /** Seconds a background job may run before it counts as lost (its instance died) and is retried elsewhere. */
  JOBS_EXPIRE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** Retries of a failed background job, and the first retry's delay in seconds (doubling after). */
  JOBS_RETRY_LIMIT: z.coerce.number().int().min(0).max(50).default(5),
  JOBS_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /**
   * SMS through Africa's Talking: AT_USERNAME and AT_API_KEY together (username `sandbox` uses the sandbox
   * host); unset, the built-in offline simulator at /simulator/sms receives every message.
   */
  AT_USERNAME: optionalString,
  AT_API_KEY: optionalString,
  /** Alphanumeric sender id or short code registered with Africa's Talking; unset = their default. */
  AT_SENDER_ID: optionalString,
  /** Another API host (a proxy, a test double); default https://api.africastalking.com or the sandbox's. */
  AT_BASE_URL: optionalUrl,
  /** The path secret of the delivery-report URL set in the Africa's Talking dashboard; generated under DATA_DIR when unset. */
  SMS_CALLBACK_SECRET: optionalString.pipe(z.string().regex(/^[A-Za-z0-9_-]{16,200}$/, 'must be 16-200 letters, digits, - or _').optional()),
  /** Milliseconds between looks for ticket and account emails to send, a job per period (0: only right after one is queued). */
  MAIL_POLL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** Attempts an email gets before it is left `failed`; a failed attempt waits MAIL_RETRY_BASE_MS, doubling (at most one hour). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(1).max(60 * 60 * 1000).default(30_000),
  /** Days sent and failed emails stay in the outbox (without their body once sent) before they are pruned. */
  MAIL_KEEP_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /**
   * Days after an event ends before its buyers' phone numbers, guest emails and gate device names are erased
   * (docs/decisions/data-rights.md, "Retention"); the privacy notice states the same number. At least a week
   * (refunds and disputes come after the event), at most five years.
   */
  PERSONAL_DATA_RETENTION_DAYS: z.coerce.number().int().min(7).max(5 * 365).default(180),
  /**
   * Who runs the payment service's reconciler passes: `local` (its own timer, one loop per payment instance) or
   * `jobs` (this server's job queue asks a payment instance for each pass through PAYMENT_URL, once per period
   * across instances; set the same on the payment service). Its period: RECONCILE_INTERVAL_MS, as the payment
   * service reads it.
   */
  PAYMENT_PASSES: z.enum(['local', 'jobs']).default('local'),
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  /** Milliseconds between Paybill reconciliations with M-Pesa's Pull Transactions (docs/decisions/reconciliation.md; default a day; 0: only when an admin asks). */
  PAYBILL_RECONCILE_EVERY_MS: z.coerce.number().int().min(0).max(172_800_000).default(86_400_000),
  /** Hours back from now each reconciliation compares (M-Pesa keeps only 48). */
  PAYBILL_RECONCILE_WINDOW_HOURS: z.coerce.number().int().min(1).max(48).default(24),
  /** Milliseconds between runs of the refunds job (once per period across instances): due refunds are sent, late results looked at; 0: only when asked. */
  REFUND_POLL_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  /** A refund attempt without a result this long after it was sent is looked at (sent again, or its Transaction Status asked), and again after as long. */
  REFUND_RESULT_WAIT_MS: z.coerce.number().int().min(1).max(86_400_000).default(300_000),
  /** Milliseconds between each instance's looks for SMS to send (0: only right after one is queued). */
  SMS_POLL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** Attempts an SMS gets before it is left `failed`. */
  SMS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** Milliseconds between looks for events starting in about 24 hours, whose ticket holders get a reminder SMS (0: no reminders). */
  SMS_REMINDER_SWEEP_MS: z.coerce.number().int().min(0).max(3_600_000).default(300_000),
  /** Opens the offline simulators' pages (SMS here, M-Pesa in the Daraja simulator); unset = DATA_DIR/simulator-key, shared by both. */
  SIMULATOR_KEY: optionalString,
  /** Minutes seats freed on a sold-out event are held for the person on the waitlist they were offered to. */
  WAITLIST_OFFER_MINUTES: z.coerce.number().positive().max(24 * 60).default(30),
  /** Milliseconds between looks at every waitlist (offers that ran out, seats freed by holds that ran out). */
  WAITLIST_SWEEP_MS: z.coerce.number().int().min(100).max(10 * 60 * 1000).default(15_000),
  /** Buyers of one event admitted to a seat hold per second while others wait in its line (docs/decisions/waiting-room.md). */
  WAITING_ROOM_RATE: z.coerce.number().positive().max(100_000).default(50),
  /** Buyers of one event admitted at once while nobody waits: an ordinary sale never sees the line. */
  WAITING_ROOM_BURST: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Seconds an admitted buyer keeps their turn (retries after a failed payment included). */
  WAITING_ROOM_TURN_SECONDS: z.coerce.number().int().min(10).max(24 * 60 * 60).default(600),
  /** The admission rate follows how fast seat holds are answered (from WAITING_ROOM_RATE, within the bounds below); off by default (docs/decisions/waiting-room.md). */
  WAITING_ROOM_ADAPTIVE: booleanFlag.default(false),
  WAITING_ROOM_RATE_MIN: z.coerce.number().positive().max(100_000).default(5),
  WAITING_ROOM_RATE_MAX: z.coerce.number().positive().max(100_000).default(1000),
  /** Milliseconds a seat hold (and the event loop) may take before fewer buyers a second are let in. */
  WAITING_ROOM_TARGET_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /** Milliseconds a whole push (order → prompt sent → push recorded, as the payment service times it) may take before fewer buyers a second are let in. */
  WAITING_ROOM_PUSH_TARGET_MS: z.coerce.number().int().min(50).max(60_000).default(1500),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(15 * 60 * 1000),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(20),
  /** Failed logins for one account across all addresses; default 5 × RATE_LIMIT_MAX. */
  RATE_LIMIT_ACCOUNT_MAX: z.coerce.number().int().positive().optional(),
  /** Per-address ceiling of each account route (shared addresses: CGNAT, campuses); default 25 × RATE_LIMIT_MAX. */
  RATE_LIMIT_IP_MAX: z.coerce.number().int().positive().optional(),
  TRUST_PROXY: booleanFlag.default(false),
  LOG_LEVEL: logLevel,
  GEOCODER_URL: optionalUrl,
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().positive().max(30_000).default(3000),
  /** IP addresses the events importer may fetch from although private or loopback (comma-separated; unset = public addresses only). */
  IMPORT_ALLOWED_ADDRESSES: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
    .refine((entries) => entries.every((entry) => isIP(entry) !== 0), 'must be a comma-separated list of IP addresses'),
  /** Webhook deliveries may go to loopback and private addresses, over http too (tests, a receiver on the operator's own network). */
  WEBHOOKS_ALLOW_PRIVATE: booleanFlag.default(false),
  /** How often the webhook sender looks for due deliveries (a job per period). */
  WEBHOOKS_POLL_MS: z.coerce.number().int().min(0).default(5000),
  /** Attempts per round before a delivery is left failed; the first retry waits WEBHOOKS_RETRY_BASE_MS, doubling. */
  WEBHOOKS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  WEBHOOKS_RETRY_BASE_MS: z.coerce.number().int().min(0).default(30_000),
  /** Milliseconds a search's ranked result ids are reused; 0 disables. Writes on this instance clear it at once. */
  EVENTS_SEARCH_CACHE_MS: z.coerce.number().int().min(0).max(10 * 60 * 1000).default(15_000),
  EVENTS_CACHE_MS: z.coerce.number().int().min(0).max(10 * 60 * 1000).default(30_000),
  /**
   * Milliseconds a bearer token's user lookup is reused; 0 disables. Every account write (logout,
   * password reset, profile, verification) drops it at once, on every instance with Redis.
   */
  AUTH_CACHE_MS: z.coerce.number().int().min(0).max(5 * 60 * 1000).default(10_000),
  /**
   * false: chat messages commit without waiting for PostgreSQL's WAL flush (lower latency under
   * load; a crash of the database server itself can lose the last ~0.6 s of messages).
   */
  CHAT_SYNCHRONOUS_COMMIT: booleanFlag.default(true),
  /**
   * Chat messages per user (socket and HTTP together): a burst of CHAT_RATE_BURST, refilled at
   * CHAT_RATE_PER_SECOND. Counted in Redis with REDIS_URL (one budget across instances), else by this process.
   */
  CHAT_RATE_BURST: z.coerce.number().int().min(1).max(1_000_000).default(10),
  CHAT_RATE_PER_SECOND: z.coerce.number().positive().max(1_000_000).default(1),
  /** Milliseconds between re-checks of every open socket's token (expiry, revocation the change feed missed). */
  SOCKET_SESSION_CHECK_MS: z.coerce.number().int().min(50).max(24 * 60 * 60 * 1000).default(60_000),
  METRICS_TOKEN: metricsToken,
});

export type Env = z.infer<typeof envSchema>;

/** Every variable the API server reads (documented in .env.example: checked by a test). */
export const SERVER_ENV_VARIABLES = Object.keys(envSchema.shape);

/** stkPush budgets: per address and per account in `windowMs`; per destination phone (anyone asking) in `phoneWindowMs`; per account in a day. */
export interface StkRateLimit {
  windowMs: number;
  perIp: number;
  perUser: number;
  perPhone: number;
  phoneWindowMs: number;
  perUserDay: number;
}

export interface AppConfig {
  env: Env['NODE_ENV'];
  port: number;
  paymentPort: number;
  /** The payment service as this server reaches it (the /pay proxy). */
  paymentUrl: string;
  /** The Daraja simulator as this server reaches it (the /simulator proxy to its phone pages); undefined = no simulator. */
  darajaSimulatorUrl: string | undefined;
  /** The Paybill number offered in the payment dialog (docs/decisions/paybill.md); undefined = not offered. */
  paybillShortcode: string | undefined;
  paymentProxyTimeoutMs: number;
  confirmQueryAfterSeconds: number;
  stkRateLimit: StkRateLimit;
  /** The payment service's origin when the client calls it directly (VITE_PAYMENT_URL); else undefined (same-origin /pay). */
  paymentBrowserOrigin: string | undefined;
  dataDir: string;
  /** Where event images are kept: DATA_DIR/uploads (`disk`, the default) or an S3 bucket. */
  objectStorage: ObjectStorageConfig;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  socketRedisAdapter: Env['SOCKET_REDIS_ADAPTER'];
  redisKeyPrefix: string;
  redisCommandTimeoutMs: number;
  jwtSecret: string;
  jwtExpiresIn: string;
  /** bcrypt's cost factor for new password hashes (PASSWORD_HASH_COST). */
  passwordHashCost: number;
  publicUrl: string;
  corsOrigins: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  admin: { username: string; email: string; password: string } | undefined;
  contactEmail: string;
  seedDemo: boolean;
  clientDist: string | undefined;
  internalApiKey: string;
  holdMinutes: number;
  /** The platform fee a fresh install starts with, and M-Pesa's charges (docs/decisions/fees.md). */
  fees: { initial: FeeRule; mpesaTariff: MpesaTariff };
  ticketSigningKey: string | undefined;
  /** Refund retries: the first back-off (doubling, capped at one hour) and the attempts before `failed`. */
  /** Refunds (docs/decisions/refunds.md): retries, the refunds job's period, and how long a result may take before it is looked at. */
  refunds: { retryBaseMs: number; maxAttempts: number; jobMs: number; resultWaitMs: number };
  /** Paybill reconciliation with M-Pesa (docs/decisions/reconciliation.md). */
  paybillReconcile: { everyMs: number; windowHours: number };
  /** Organiser payouts (docs/decisions/payouts.md): the schedule, the smallest payout, results and retries, the job's period. */
  payouts: { delayDays: number; earlySharePercent: number; minAmount: number; resultWaitSeconds: number; maxAttempts: number; retryBaseMs: number; jobMs: number };
  /** Background jobs (pg-boss): when a running one counts as lost, and the retries of a failed one. */
  /** ACCOUNT_DELETION_GRACE_DAYS: a confirmed account deletion can be undone this long, then it is erased. */
  accountDeletionGraceDays: number;
  jobs: { expireSeconds: number; retryLimit: number; retryDelaySeconds: number };
  /** The SMS channel: Africa's Talking or the offline simulator, the delivery-report secret, the sender's pace. */
  sms: {
    gateway: { kind: 'africastalking'; baseUrl: string; username: string; apiKey: string; senderId: string | undefined } | { kind: 'simulator'; key: string };
    callbackSecret: string;
    pollMs: number;
    maxAttempts: number;
    reminderSweepMs: number;
  };
  /** The mail outbox: how often it is looked at, attempts and their back-off, how long sent rows are kept. */
  mail: { pollMs: number; maxAttempts: number; retryBaseMs: number; keepDays: number };
  /** PERSONAL_DATA_RETENTION_DAYS. */
  personalDataRetentionDays: number;
  /**
   * The payment service's passes as jobs here (`jobs`: each period's pass is asked of one payment instance
   * through paymentUrl), or left to its own timers (`local`); a period of 0 = that pass is not scheduled.
   */
  paymentPasses: { mode: 'local' | 'jobs'; reconcileMs: number };
  /** How long a waitlist offer holds its seats, and how often every waitlist is looked at. */
  waitlist: { offerMinutes: number; sweepMs: number };
  /** The line in front of a busy sale's seat holds: admissions per second and at once, and how long a turn lasts. */
  waitingRoom: { perSecond: number; burst: number; turnSeconds: number; adaptive: boolean; minPerSecond: number; maxPerSecond: number; targetMs: number; pushTargetMs: number };
  /**
   * max: the general per-address limit, and per account+address failed logins and per-account emails;
   * accountMax: failed logins for one account across addresses; ipMax: per-address ceiling of account routes.
   */
  rateLimit: { windowMs: number; max: number; accountMax: number; ipMax: number };
  trustProxy: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** Nominatim-style search endpoint; unset keeps geocoding on the built-in Kenyan gazetteer only. */
  geocoder: { url: string | undefined; timeoutMs: number };
  /** Addresses `npm run import:events -- <URL>` may fetch from although private or loopback. */
  importAllowedAddresses: string[];
  /** Organisers' webhooks (docs/decisions/webhooks.md). */
  webhooks: { allowPrivate: boolean; pollMs: number; maxAttempts: number; retryBaseMs: number; timeoutMs: number };
  eventsSearchCacheMs: number;
  eventsCacheMs: number;
  authCacheMs: number;
  chatSynchronousCommit: boolean;
  chatRateLimit: { burst: number; perSecond: number };
  socketSessionCheckMs: number;
  /** GET /metrics needs `Authorization: Bearer <metricsToken>`; undefined = metrics disabled (404). */
  metricsToken: string | undefined;
}

export type ObjectStorageConfig =
  | { kind: 'disk' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** A non-AWS server's URL (path-style addressing); undefined = AWS itself. */
      endpoint: string | undefined;
      accessKeyId: string;
      secretAccessKey: string;
      /** Base URL browsers load `events/<name>` from; undefined = the API streams objects at /uploads. */
      publicUrl: string | undefined;
    };

const S3_VARIABLES = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_REGION', 'S3_ENDPOINT', 'S3_PUBLIC_URL'] as const;

/** Disk unless any S3_* is set; then the bucket and both keys must be, so a typo never silently falls back to disk. */
function objectStorageOf(env: Env): ObjectStorageConfig {
  if (!S3_VARIABLES.some((name) => env[name] !== undefined)) return { kind: 'disk' };
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if (!bucket || !accessKeyId || !secretAccessKey) {
    const missing = Object.entries({ S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey })
      .filter(([, value]) => !value)
      .map(([name]) => name);
    throw new ConfigError(`Invalid configuration: S3 storage needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together; missing ${missing.join(', ')}`);
  }
  return {
    kind: 's3',
    bucket,
    region: env.S3_REGION ?? 'us-east-1',
    endpoint: env.S3_ENDPOINT && withoutTrailingSlash(env.S3_ENDPOINT),
    accessKeyId,
    secretAccessKey,
    publicUrl: env.S3_PUBLIC_URL && withoutTrailingSlash(env.S3_PUBLIC_URL),
  };
}

/** Africa's Talking when its username and key are set (both, or neither), else the built-in simulator. */
function smsGatewayOf(env: Env, dataDir: string): AppConfig['sms']['gateway'] {
  if (Boolean(env.AT_USERNAME) !== Boolean(env.AT_API_KEY)) {
    throw new ConfigError('Invalid configuration: AT_USERNAME and AT_API_KEY must be set together (or neither, for the offline SMS simulator)');
  }
  if (!env.AT_USERNAME || !env.AT_API_KEY) return { kind: 'simulator', key: env.SIMULATOR_KEY ?? readOrCreateSecret(dataDir, 'simulator-key') };
  const host = env.AT_USERNAME === 'sandbox' ? 'https://api.sandbox.africastalking.com' : 'https://api.africastalking.com';
  return { kind: 'africastalking', baseUrl: withoutTrailingSlash(env.AT_BASE_URL ?? host), username: env.AT_USERNAME, apiKey: env.AT_API_KEY, senderId: env.AT_SENDER_ID };
}

function mpesaTariffOf(value: string | undefined): MpesaTariff {
  try {
    return parseMpesaTariff(value);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const env = parseEnv(envSchema, source, 'configuration');
  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = publicUrlOf(env);
  const adminParts = [env.ADMIN_USERNAME, env.ADMIN_EMAIL, env.ADMIN_PASSWORD];
  if (adminParts.some(Boolean) && !adminParts.every(Boolean)) {
    throw new ConfigError('Invalid configuration: ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (env.ADMIN_PASSWORD && env.ADMIN_PASSWORD.length < 6) {
    throw new ConfigError('Invalid configuration: ADMIN_PASSWORD must be at least 6 characters');
  }
  if (env.PASSWORD_HASH_COST < 10 && env.NODE_ENV !== 'test') {
    throw new ConfigError('Invalid configuration: PASSWORD_HASH_COST below 10 is for tests only (NODE_ENV=test)');
  }
  const corsOrigins = corsOriginsOf(env.CORS_ORIGINS, publicUrl);
  const objectStorage = objectStorageOf(env);

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    paymentPort: env.PAYMENT_PORT,
    paymentUrl: withoutTrailingSlash(env.PAYMENT_URL ?? `http://127.0.0.1:${env.PAYMENT_PORT}`),
    darajaSimulatorUrl: env.DARAJA_SIMULATOR_URL && withoutTrailingSlash(env.DARAJA_SIMULATOR_URL),
    paybillShortcode: env.PAYBILL_SHORTCODE ?? env.DARAJA_SHORTCODE,
    paymentProxyTimeoutMs: env.PAYMENT_PROXY_TIMEOUT_MS,
    confirmQueryAfterSeconds: env.CONFIRM_QUERY_AFTER_SECONDS,
    stkRateLimit: {
      windowMs: env.STK_RATE_LIMIT_WINDOW_MS,
      perIp: env.STK_RATE_LIMIT_PER_IP,
      perUser: env.STK_RATE_LIMIT_PER_USER,
      perPhone: env.STK_RATE_LIMIT_PER_PHONE,
      phoneWindowMs: env.STK_RATE_LIMIT_PHONE_WINDOW_MS,
      perUserDay: env.STK_RATE_LIMIT_PER_USER_DAY,
    },
    paymentBrowserOrigin: env.VITE_PAYMENT_URL ? new URL(env.VITE_PAYMENT_URL).origin : undefined,
    dataDir,
    objectStorage,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    socketRedisAdapter: env.SOCKET_REDIS_ADAPTER,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    redisCommandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    jwtSecret: env.JWT_SECRET ?? readOrCreateSecret(dataDir, 'jwt-secret'),
    jwtExpiresIn: env.JWT_EXPIRES_IN,
    passwordHashCost: env.PASSWORD_HASH_COST,
    publicUrl,
    corsOrigins,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    admin:
      env.ADMIN_USERNAME && env.ADMIN_EMAIL && env.ADMIN_PASSWORD
        ? { username: env.ADMIN_USERNAME, email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }
        : undefined,
    contactEmail: env.CONTACT_EMAIL ?? env.ADMIN_EMAIL ?? 'hello@tukio.local',
    seedDemo: env.SEED_DEMO,
    clientDist: env.CLIENT_DIST,
    internalApiKey: env.INTERNAL_API_KEY ?? readOrCreateSecret(dataDir, 'internal-api-key'),
    holdMinutes: env.HOLD_MINUTES,
    fees: {
      initial: { percentBp: Math.round(env.PLATFORM_FEE_PERCENT * 100), fixed: env.PLATFORM_FEE_FIXED, minimum: env.PLATFORM_FEE_MINIMUM },
      mpesaTariff: mpesaTariffOf(env.MPESA_TARIFF),
    },
    ticketSigningKey: env.TICKET_SIGNING_KEY,
    paybillReconcile: { everyMs: env.PAYBILL_RECONCILE_EVERY_MS, windowHours: env.PAYBILL_RECONCILE_WINDOW_HOURS },
    refunds: { retryBaseMs: env.REFUND_RETRY_BASE_MS, maxAttempts: env.REFUND_MAX_ATTEMPTS, jobMs: env.REFUND_POLL_MS, resultWaitMs: env.REFUND_RESULT_WAIT_MS },
    payouts: {
      delayDays: env.PAYOUT_DELAY_DAYS,
      earlySharePercent: env.EARLY_PAYOUT_SHARE,
      minAmount: env.PAYOUT_MIN_AMOUNT,
      resultWaitSeconds: env.PAYOUT_RESULT_WAIT_SECONDS,
      maxAttempts: env.PAYOUT_MAX_ATTEMPTS,
      retryBaseMs: env.PAYOUT_RETRY_BASE_MS,
      jobMs: env.PAYOUT_JOB_MS,
    },
    accountDeletionGraceDays: env.ACCOUNT_DELETION_GRACE_DAYS,
    jobs: { expireSeconds: env.JOBS_EXPIRE_SECONDS, retryLimit: env.JOBS_RETRY_LIMIT, retryDelaySeconds: env.JOBS_RETRY_DELAY_SECONDS },
    waitlist: { offerMinutes: env.WAITLIST_OFFER_MINUTES, sweepMs: env.WAITLIST_SWEEP_MS },
    waitingRoom: {
      perSecond: env.WAITING_ROOM_RATE,
      burst: env.WAITING_ROOM_BURST,
      turnSeconds: env.WAITING_ROOM_TURN_SECONDS,
      adaptive: env.WAITING_ROOM_ADAPTIVE,
      minPerSecond: env.WAITING_ROOM_RATE_MIN,
      maxPerSecond: env.WAITING_ROOM_RATE_MAX,
      targetMs: env.WAITING_ROOM_TARGET_MS,
      pushTargetMs: env.WAITING_ROOM_PUSH_TARGET_MS,
    },
    mail: { pollMs: env.MAIL_POLL_MS, maxAttempts: env.MAIL_MAX_ATTEMPTS, retryBaseMs: env.MAIL_RETRY_BASE_MS, keepDays: env.MAIL_KEEP_DAYS },
    personalDataRetentionDays: env.PERSONAL_DATA_RETENTION_DAYS,
    paymentPasses: { mode: env.PAYMENT_PASSES, reconcileMs: env.RECONCILE_INTERVAL_MS },
    sms: {
      gateway: smsGatewayOf(env, dataDir),
      callbackSecret: env.SMS_CALLBACK_SECRET ?? readOrCreateSecret(dataDir, 'sms-callback-secret'),
      pollMs: env.SMS_POLL_MS,
      maxAttempts: env.SMS_MAX_ATTEMPTS,
      reminderSweepMs: env.SMS_REMINDER_SWEEP_MS,
    },
    rateLimit: {
      windowMs: env.RATE_LIMIT_WINDOW_MS,
      max: env.RATE_LIMIT_MAX,
      accountMax: env.RATE_LIMIT_ACCOUNT_MAX ?? env.RATE_LIMIT_MAX * 5,
      ipMax: env.RATE_LIMIT_IP_MAX ?? env.RATE_LIMIT_MAX * 25,
    },
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    geocoder: { url: env.GEOCODER_URL, timeoutMs: env.GEOCODER_TIMEOUT_MS },
    importAllowedAddresses: env.IMPORT_ALLOWED_ADDRESSES,
    webhooks: { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE, pollMs: env.WEBHOOKS_POLL_MS, maxAttempts: env.WEBHOOKS_MAX_ATTEMPTS, retryBaseMs: env.WEBHOOKS_RETRY_BASE_MS, timeoutMs: 10_000 },
    eventsSearchCacheMs: env.EVENTS_SEARCH_CACHE_MS,
    eventsCacheMs: env.EVENTS_CACHE_MS,
    authCacheMs: env.AUTH_CACHE_MS,
    chatSynchronousCommit: env.CHAT_SYNCHRONOUS_COMMIT,
    chatRateLimit: { burst: env.CHAT_RATE_BURST, perSecond: env.CHAT_RATE_PER_SECOND },
    socketSessionCheckMs: env.SOCKET_SESSION_CHECK_MS,
    metricsToken: env.METRICS_TOKEN,
  };
}
