import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ConfigError, logLevel, optionalString, optionalUrl, parseEnv, port, urlSafeSecret, withoutTrailingSlash } from '@tukio/shared/node/env';
import { readOrCreateSecret } from '@tukio/shared/node/secret';
import { z } from 'zod';
import credentials from './credentials.json' with { type: 'json' };

export { ConfigError };

/**
 * The simulator's own Daraja app: harmless because they open nothing but this simulator. `npm start`, the
 * cluster, the benches and the tests hand the same ones to the payment service as if they were a real app's.
 */
export const SIMULATOR_CREDENTIALS: Readonly<typeof credentials> = credentials;

const envSchema = z.object({
  SIMULATOR_PORT: port(27685),
  /** Loopback by default: its credentials are public. 0.0.0.0 in a container. */
  SIMULATOR_HOST: z.string().trim().regex(/^[\w.:-]+$/, 'must be an address or a host name, e.g. 127.0.0.1 or 0.0.0.0').default('127.0.0.1'),
  /** Opens the list of every prompt, the payout modes and the ledger; unset = DATA_DIR/simulator-key, else a fresh random key. */
  SIMULATOR_KEY: urlSafeSecret,
  DATA_DIR: optionalString,
  /** Origins (comma-separated) it posts callbacks and results to; default the origin of DARAJA_CALLBACK_URL, else http://127.0.0.1:27684. */
  SIMULATOR_CALLBACK_ORIGINS: optionalString,
  DARAJA_CALLBACK_URL: optionalUrl,
  /** Where people open its phone pages (printed at start); default its own address. `npm start`: the API server's, which forwards /simulator. */
  SIMULATOR_PUBLIC_URL: optionalUrl,
  SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  /** How long a "late" payer from the simulated M-Pesa menu (Pay Bill) waits before paying. */
  SIMULATOR_C2B_LATE_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  SIMULATOR_PROMPT_TIMEOUT_MS: z.coerce.number().int().positive().max(3_600_000).default(60_000),
  SIMULATOR_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().max(86_400).default(3599),
  LOG_LEVEL: logLevel,
});

/** Every variable the simulator reads (documented in .env.example: checked by a test). */
export const SIMULATOR_ENV_VARIABLES = Object.keys(envSchema.shape);

export interface SimulatorConfig {
  port: number;
  host: string;
  key: string;
  callbackOrigins: string[];
  publicUrl: string | undefined;
  delayMs: number;
  c2bLateMs: number;
  promptTimeoutMs: number;
  tokenTtlSeconds: number;
  logLevel: 'silent' | 'error' | 'info';
}

/** A comma-separated list of http(s) origins (a URL's path is dropped); a ConfigError naming `variable` otherwise. */
export function callbackOriginsOf(value: string, variable: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = URL.canParse(entry) ? new URL(entry) : undefined;
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        throw new ConfigError(`Invalid Daraja simulator configuration: ${variable}: ${entry} is not an http(s) origin such as http://127.0.0.1:27684`);
      }
      return url.origin;
    });
}

export function loadSimulatorConfig(source: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const env = parseEnv(envSchema, source, 'Daraja simulator configuration');
  const key = env.SIMULATOR_KEY ?? (env.DATA_DIR ? readOrCreateSecret(path.resolve(env.DATA_DIR), 'simulator-key') : randomBytes(24).toString('base64url'));
  return {
    port: env.SIMULATOR_PORT,
    host: env.SIMULATOR_HOST,
    key,
    callbackOrigins: callbackOriginsOf(env.SIMULATOR_CALLBACK_ORIGINS ?? env.DARAJA_CALLBACK_URL ?? 'http://127.0.0.1:27684', 'SIMULATOR_CALLBACK_ORIGINS'),
    publicUrl: env.SIMULATOR_PUBLIC_URL && withoutTrailingSlash(env.SIMULATOR_PUBLIC_URL),
    delayMs: env.SIMULATOR_DELAY_MS,
    c2bLateMs: env.SIMULATOR_C2B_LATE_MS,
    promptTimeoutMs: env.SIMULATOR_PROMPT_TIMEOUT_MS,
    tokenTtlSeconds: env.SIMULATOR_TOKEN_TTL_SECONDS,
    logLevel: env.LOG_LEVEL,
  };
}
