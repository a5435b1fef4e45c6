import { z } from 'zod';

/**
 * Building blocks of the services' configuration schemas (server/src/config.ts, payment-service/src/config.ts).
 * Each service keeps its own schema and reads process.env in one place, at start; what a variable of a kind
 * accepts, and how a refusal reads, is written once here.
 */

export class ConfigError extends Error {}

/** 1/0, true/false, yes/no, on/off; empty = false. */
export const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

/** Trimmed; empty or unset = undefined. */
export const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** An http(s) URL; empty or unset = undefined. */
export const optionalUrl = optionalString.pipe(z.url({ protocol: /^https?$/ }).optional());

/** Starts every key a deployment keeps in Redis (REDIS_KEY_PREFIX), so deployments can share one Redis. */
export const redisKeyPrefix = z.string().trim().min(1).max(100).regex(/^[\w:.-]+$/, 'letters, digits and _ : . - only').default('tukio:');

/**
 * How long Redis may leave a command unanswered before the connection counts as down (REDIS_COMMAND_TIMEOUT_MS,
 * node/redis.ts): requests depending on Redis answer within about twice this during an outage.
 */
export const redisCommandTimeoutMs = z.coerce.number().int().min(100).max(60_000).default(1000);

/** A TCP port (0 = any free one). */
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const nodeEnv = z.enum(['development', 'production', 'test']).default('development');
export const logLevel = z.enum(['silent', 'error', 'info']).default('info');

/** A secret that travels in URLs and headers: 16-128 URL-safe characters; empty or unset = undefined (generated). */
export const urlSafeSecret = optionalString.pipe(z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be 16-128 URL-safe characters').optional());

/** Bearer token Prometheus sends to GET /metrics; unset = the endpoint answers 404. */
export const metricsToken = optionalString.pipe(z.string().regex(/^\S{16,256}$/, 'must be 16-256 characters without spaces').optional());

/** The parsed environment, or a ConfigError naming every variable at fault (`Invalid <what>: NAME: problem; …`). */
export function parseEnv<Schema extends z.ZodType>(schema: Schema, source: NodeJS.ProcessEnv, what: string): z.output<Schema> {
  const parsed = schema.safeParse(source);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  throw new ConfigError(`Invalid ${what}: ${problems}`);
}

/** A base URL as the services join paths to it: without trailing slashes. */
export const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** This deployment's public URL (PUBLIC_URL, else the API server on localhost). */
export const publicUrlOf = (env: { PUBLIC_URL?: string | undefined; PORT: number }) => withoutTrailingSlash(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`);

/** CORS_ORIGINS (comma-separated), else the public URL and the Vite dev server. */
export function corsOriginsOf(value: string | undefined, publicUrl: string): string[] {
  return (value ?? `${publicUrl},http://localhost:5173`)
    .split(',')
    .map((origin) => withoutTrailingSlash(origin.trim()))
    .filter(Boolean);
}
