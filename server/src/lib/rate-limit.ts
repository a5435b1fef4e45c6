import type { Request, RequestHandler, Response } from 'express';
import { redisRateLimitStore, type RedisCommands } from '@tukio/shared/node/redis';
import { ipKeyGenerator, rateLimit, type Options, type Store } from 'express-rate-limit';

/**
 * Where budgets are counted, by limiter name. A name is used once: two limiters under one name would
 * draw on one count. Without `budgets` a limiter counts in this process's memory, unchecked.
 */
export interface Budgets {
  store(name: string): Store | undefined;
}

function budgetsByName(makeStore: (name: string) => Store | undefined): Budgets {
  const names = new Set<string>();
  return {
    store(name) {
      if (names.has(name)) throw new Error(`rate limit "${name}" is defined twice`);
      names.add(name);
      return makeStore(name);
    },
  };
}

/** Counts in this process's memory (express-rate-limit's own store): one instance only. */
export const localBudgets = (): Budgets => budgetsByName(() => undefined);

/**
 * Counts in Redis, so every instance draws on one budget (an attacker gains nothing from reaching
 * several). Keys: `<keyPrefix>rl:<name>:<key>`, expiring with their window. While Redis is unavailable
 * each instance counts in its own memory instead: logins, sign-ups and the other limited routes keep
 * working (and limited), at worst with one budget per instance for the outage's length.
 */
export const sharedBudgets = (redis: RedisCommands, keyPrefix: string): Budgets =>
  budgetsByName((name) => redisRateLimitStore(redis, `${keyPrefix}rl:${name}:`, 'count-locally'));

export interface RateLimitOptions {
  windowMs: number;
  max: number;
  /** Names this budget in `budgets` (its Redis keys); unique per limiter. */
  name: string;
  budgets?: Budgets | undefined;
}

/** The account routes' budgets (config `rateLimit`, plus where they are counted): see `limitLoginFailures`. */
export interface AccountRateLimits {
  windowMs: number;
  max: number;
  budgets?: Budgets | undefined;
  /** Failed logins for one account across every address. */
  accountMax: number;
  /** Per-address ceiling of each account route; high, because whole networks share one address (CGNAT). */
  ipMax: number;
}

/** What a budget is kept for; undefined = the request names no account and is not counted here. */
export type KeyOf = (req: Request) => string | undefined | Promise<string | undefined>;

const tooMany = 'Too many attempts. Please wait a few minutes and try again.';
const FAILED = 'rateLimitFailedAttempt';

/**
 * Marks this request as a failed attempt (a wrong password, a bad link, invalid input): limiters built
 * with `failuresOnly` count only such requests, so successful logins never use up a budget.
 */
export function countAsFailedAttempt(res: Response): void {
  res.locals[FAILED] = true;
}

/**
 * ipKeyGenerator parses the address (IPv6 to its /56) on every call, a visible cost on the busiest
 * limited routes: each address's key is kept, in a set bounded by starting over when it is full.
 */
const addressKeys = new Map<string, string>();
const ADDRESS_KEYS_MAX = 10_000;
function clientAddress(req: Request): string {
  const ip = req.ip ?? '';
  let key = addressKeys.get(ip);
  if (key === undefined) {
    if (addressKeys.size >= ADDRESS_KEYS_MAX) addressKeys.clear();
    key = ipKeyGenerator(ip);
    addressKeys.set(ip, key);
  }
  return key;
}

/**
 * One budget. `key` (default: the client address) names what it is kept for; `failuresOnly` counts
 * only requests marked with `countAsFailedAttempt` (the count goes up on arrival, so parallel guesses
 * are held too, and back down once an answer turns out not to be a failure, 429s included).
 */
function limiter(
  options: RateLimitOptions & { key?: KeyOf; failuresOnly?: boolean; whenExceeded?: Options['handler'] },
  extraBody: Record<string, unknown>,
) {
  const { key } = options;
  const store = options.budgets?.store(options.name);
  return rateLimit({
    ...(store ? { store } : {}),
    windowMs: options.windowMs,
    limit: options.max,
    // Only address budgets are announced: the headers of an account budget (its remaining count, a hash
    // of its key) would tell which username goes with which email, and that an account exists.
    standardHeaders: key ? false : 'draft-8',
    legacyHeaders: false,
    message: { ...extraBody, msg: tooMany, message: tooMany, code: 'too_many_requests' },
    ...(key
      ? {
          keyGenerator: async (req: Request) => (await key(req))!,
          skip: async (req: Request) => (await key(req)) === undefined,
          validate: { keyGeneratorIpFallback: false },
        }
      : { keyGenerator: clientAddress }),
    ...(options.failuresOnly
      ? { skipSuccessfulRequests: true, requestWasSuccessful: (_req: Request, res: Response) => res.locals[FAILED] !== true }
      : {}),
    ...(options.whenExceeded ? { handler: options.whenExceeded } : {}),
  });
}

/** Per-IP limit over every request. The body carries both spellings of the message, as every error body does. */
export function limitPerIp(options: RateLimitOptions, extraBody: Record<string, unknown> = {}): RequestHandler {
  return limiter(options, extraBody);
}

/** Per-IP limit over failed attempts only (`countAsFailedAttempt`). */
export function limitFailuresPerIp(options: RateLimitOptions, extraBody: Record<string, unknown> = {}): RequestHandler {
  return limiter({ ...options, failuresOnly: true }, extraBody);
}

/** Per-account limit over every request, keyed on what `accountOf` names (callers normalise it). */
export function limitPerAccount(options: RateLimitOptions, accountOf: KeyOf, extraBody: Record<string, unknown> = {}): RequestHandler {
  return limiter({ ...options, key: async (req) => withPrefix('account', await accountOf(req)) }, extraBody);
}

const withPrefix = (prefix: string, value: string | undefined) => (value === undefined ? undefined : `${prefix}:${value}`);

/** Computes a request's key once, whichever limiter asks first. */
function oncePerRequest(keyOf: KeyOf): (req: Request) => Promise<string | undefined> {
  const known = new WeakMap<Request, Promise<string | undefined>>();
  return (req) => {
    let key = known.get(req);
    if (!key) {
      key = Promise.resolve(keyOf(req));
      known.set(req, key);
    }
    return key;
  };
}

/**
 * Failed logins, three budgets (successful logins count in none):
 * - account + address: `max`; an address guessing one account stops here.
 * - account across addresses: `accountMax`; once used up, addresses that already failed for this
 *   account are refused, but one that has not (the owner on another network) still has its password
 *   checked, so nobody can lock the owner out from elsewhere. A guesser with many addresses gets at most
 *   one more try from each.
 * - address across accounts: `ipMax`, a ceiling a shared address (CGNAT, campus, cyber café) does not
 *   reach in normal use.
 * `accountOf` names the account (both its username and its email must give the same key).
 */
export function limitLoginFailures(limits: AccountRateLimits, accountOf: KeyOf, extraBody: Record<string, unknown> = {}): RequestHandler[] {
  const account = oncePerRequest(accountOf);
  const accountAndAddress = async (req: Request) => withPrefix(`login:${clientAddress(req)}`, await account(req));
  const { windowMs, budgets } = limits;
  const perAddress = limiter({ name: 'login-address', windowMs, budgets, max: limits.ipMax, failuresOnly: true }, extraBody);
  const perAccountAndAddress = limiter(
    { name: 'login-account-address', windowMs, budgets, max: limits.max, failuresOnly: true, key: accountAndAddress },
    extraBody,
  );
  const perAccount = limiter(
    {
      name: 'login-account',
      windowMs,
      budgets,
      max: limits.accountMax,
      failuresOnly: true,
      key: async (req) => withPrefix('login', await account(req)),
      whenExceeded: (req, res, next, options) => {
        void (async () => {
          // This request is already counted by perAccountAndAddress: more than one means this address has failed before.
          const here = await perAccountAndAddress.getKey((await accountAndAddress(req))!);
          if ((here?.totalHits ?? 0) <= 1) next();
          else res.status(options.statusCode).send(options.message);
        })().catch(next);
      },
    },
    extraBody,
  );
  return [perAddress, perAccountAndAddress, perAccount];
}
