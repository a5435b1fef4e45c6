import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/db/ids.js';
import { routeKey, routeTable, type RouteEntry } from './helpers/route-table.js';
import {
  buildWorld,
  changeLogMark,
  errorBodyProblems,
  installChangeLog,
  mountedApiRoutes,
  quiesce,
  multipart,
  rawRequest,
  tablesChangedSince,
  tinyGif,
  type Person,
  type RawRequest,
  type RawResponse,
  type World,
  type WorldTools,
} from './helpers/security.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Malformed input against every route of the route table, generated with fast-check from a fixed
 * seed: wrong types, missing and extra fields, huge strings (past the 1 MB body limit), unicode and
 * NUL, odd numbers, bad ids, bad JSON, wrong content types, multipart garbage, path traversal in
 * upload names and path parameters, broken tokens and internal keys.
 *
 * Phase 1 sends them all (8 at a time): no 5xx, every 4xx a clear JSON `msg` without internals.
 * Phase 2 replays the refused ones in batches of 8 between two snapshots of every table (row counts
 * and a hash of the rows): a batch refused in full must leave the database exactly as it was.
 *
 * FUZZ_SEED and FUZZ_REQUESTS override the defaults (a run prints both and its figures).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_250_611);
const PHASE1_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 7_800);
const PHASE2_MAX = Math.ceil(PHASE1_REQUESTS * 0.3);
const CONCURRENCY = 8;
const HUGE = 1_500_000;

let t: TestServer;
let tools: WorldTools;
let w: World;

beforeAll(async () => {
  t = await startTestServer({ LOG_LEVEL: 'error' });
  tools = await buildWorld(t, { pendingPayments: 12 });
  w = tools.w;
}, 180_000);
afterAll(async () => {
  if (t) await quiesce(t);
  await t?.close();
});

// ---- building blocks ---------------------------------------------------------------------------

const loneSurrogates = fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 4 });

const oddStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(50),
  '\uFEFFhello',
  '\u202Eevil',
  'Ω≈ç√∫˜µ≤≥÷',
  'Nairobi 🎉🇰🇪',
  '👩‍👩‍👧‍👦'.repeat(50),
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '" or ""="',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%s%s%s%n',
  '${7*7}{{7*7}}',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '2147483648',
  '-2147483649',
  '99999999999',
  '0x10',
  '1e5',
  'true',
  '__proto__',
  'constructor',
  '[object Object]',
  '\r\nX-Injected: 1',
  'x'.repeat(10_000),
  'é'.repeat(70_000),
  '2025-02-30T25:61',
  '0000-01-01T00:00',
  '99999-12-31T23:59',
  '2025-13-01',
  'a@b',
  `${'a'.repeat(250)}@example.com`,
);

const weirdString = fc.oneof(
  { weight: 3, arbitrary: oddStrings },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: loneSurrogates },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 100, maxLength: 3000 }) },
);

const weirdNumber = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(0, -0, -1, 1, 0.5, -0.5, 1e308, -1e308, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, 1e21, 5e-324, 123456789.123456, 11, 6, 250_001, 1_000_001),
  },
  // Whole numbers past the 32-bit columns, as numbers and as the numeric strings forms send.
  { weight: 2, arbitrary: fc.maxSafeInteger() },
  { weight: 1, arbitrary: fc.maxSafeInteger().map(String) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

const badIds = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    'x',
    'zzzzzzzzzzzzzzzzzzzzzzzz',
    'ABCDEFABCDEFABCDEFABCDEF',
    'ffffffffffffffffffffffff',
    '000000000000000000000000',
    '000000000000000000000001',
    'fffffffffffffffffffffff',
    'fffffffffffffffffffffffff',
    ' ffffffffffffffffffffffff',
    'ffffffffffffffffffffffff\u0000',
    '-1',
    'null',
    'undefined',
    '../../etc/passwd',
    "1' OR '1'='1",
    '{"$gt":""}',
  ),
  fc.stringMatching(/^[0-9a-f]{24}$/),
  fc.string({ maxLength: 30 }),
);

const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: weirdString },
  { weight: 3, arbitrary: weirdNumber },
  { weight: 2, arbitrary: badIds },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, [], {}, [null], [[]], { $gt: '' }, { __proto__: { isAdmin: true } }, ['a', 'b']) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 1500 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown) },
);

/** Numbers that fit no column or rule: past 32 bits, unsafe, fractional, negative, as numbers or numeric strings. */
const outOfRangeNumbers = fc.oneof(
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, -(2 ** 53) + 1, 1e15, -1, 0, 0.5, 1e308),
  fc.maxSafeInteger(),
  fc.maxSafeInteger().map(String),
  fc.constantFrom('2147483648', '-2147483649', '99999999999', '1e400', '0x7fffffff', ' 12 ', '12abc'),
);

/** A weird value, most often of the kind the well-formed field holds. */
function typedWeirdValue(sample: unknown): fc.Arbitrary<unknown> {
  const typed =
    typeof sample === 'number' || (typeof sample === 'string' && /^\d+$/.test(sample))
      ? outOfRangeNumbers
      : typeof sample === 'string' && /^[0-9a-f]{24}$/.test(sample)
        ? badIds
        : typeof sample === 'string'
          ? weirdString
          : weirdValue;
  return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 2, arbitrary: weirdValue });
}

/** Raw number spellings JSON.stringify cannot produce. */
const rawNumbers = fc.constantFrom('1e999', '-1e999', '1e-400', '-0', '123456789012345678901234567890', '0.0000000000000000000000001', '1E+2', '00012');

const badJsonBodies = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"a":}',
    '{"a":1,}',
    "{'a':1}",
    '{"a":1}}',
    '[1,2',
    'NaN',
    'undefined',
    '{"a":"\\u00"}',
    '{"a":"\\x41"}',
    '\uFEFF{"a":1}',
    '\u0000',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    '',
    ' ',
    'null',
    '"just a string"',
    '12345',
    'true',
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

const garbageContentTypes = fc.constantFrom(
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'application/xml',
  'application/json; charset=utf-7',
  'application/json; charset=latin1',
  'application/octet-stream',
  'image/png',
  'application/vnd.api+json',
  '*/*',
  'garbage',
);

const traversalNames = fc.constantFrom(
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2Fetc%2Fpasswd',
  '/etc/passwd',
  'poster.gif/../../../server.ts',
  'a\u0000.gif',
  '.htaccess',
  '.env',
  `${'x'.repeat(300)}.gif`,
  'évènement 🎉.gif',
  'CON.gif',
  'x.gif\r\nContent-Type: text/html',
  'poster.php.gif',
  '',
);

const uploadContents = fc.oneof(
  { weight: 3, arbitrary: fc.constant(tinyGif()) },
  {
    weight: 5,
    arbitrary: fc.constantFrom<Buffer>(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
      Buffer.from('<?php system($_GET["c"]); ?>'),
      Buffer.from('<html><script>alert(1)</script></html>'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
      Buffer.from('GIF89a'),
      Buffer.alloc(0),
      Buffer.from('root:x:0:0:root:/root:/bin/bash'),
    ),
  },
);

// ---- tokens ---------------------------------------------------------------------------------

function brokenTokens(secret: string): string[] {
  const someone = newId();
  return [
    '',
    'null',
    'undefined',
    'Bearer',
    'Bearer ',
    'Bearer null',
    'Bearer x.y.z',
    'Basic YWRtaW46YWRtaW4=',
    `Bearer ${'a'.repeat(6000)}`,
    // alg "none"
    `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: someone, tv: 0 })).toString('base64url')}.`,
    `Bearer ${jwt.sign({ tv: 0 }, 'wrong-secret-wrong-secret-wrong-secret', { subject: someone })}`,
    `Bearer ${jwt.sign({ tv: 0 }, secret, { subject: someone, expiresIn: -10 })}`,
    `Bearer ${jwt.sign({ tv: 0 }, secret, { subject: someone })}`,
    `Bearer ${jwt.sign({ tv: 0 }, secret, { subject: '../../etc/passwd' })}`,
    `Bearer ${jwt.sign({ tv: 'x', sub: 42 }, secret)}`,
    `Bearer ${jwt.sign({ tv: 0 }, secret, { subject: someone, algorithm: 'HS512' })}`,
    `Bearer ${jwt.sign({ tv: 0, role: 'admin' }, secret, { subject: someone })}`,
  ];
}

// ---- requests -------------------------------------------------------------------------------

/** A generated request, built only when it is sent (some carry 1.5 MB bodies). */
interface FuzzCase {
  kind: string;
  build(): RawRequest;
}

type Baseline = {
  params: Record<string, string>;
  query: Record<string, string> | undefined;
  body: Record<string, unknown> | undefined;
  headers: Record<string, string>;
};

function personOf(as: RouteEntry['fuzz']['as']): Person | undefined {
  return { visitor: undefined, a: w.a, b: w.b, admin: w.admin }[as];
}

function baselineOf(entry: RouteEntry): Baseline {
  const person = personOf(entry.fuzz.as);
  const headers: Record<string, string> = {};
  if (person) headers.authorization = `Bearer ${person.token}`;
  if (entry.fuzz.internal) headers['x-internal-key'] = tools.internalKey;
  const wantsBody = entry.method !== 'GET' && entry.method !== 'DELETE';
  return {
    params: entry.fuzz.params?.(w, person) ?? {},
    query: entry.fuzz.query?.(w, person),
    body: entry.fuzz.body?.(w, person) ?? (wantsBody ? {} : undefined),
    headers,
  };
}

/** Percent-encodes every byte of the UTF-8 form except unreserved characters (lone surrogates become U+FFFD). */
const encodeSegment = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((byte) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

function buildPath(entry: RouteEntry, params: Record<string, string>, rawParams = new Set<string>(), query?: Record<string, string> | string) {
  const pathPart = entry.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name] ?? 'x';
    return rawParams.has(name) ? value : encodeSegment(value);
  });
  const queryText = typeof query === 'string' ? query : query ? new URLSearchParams(query).toString() : '';
  return queryText ? `${pathPart}?${queryText}` : pathPart;
}

type Overrides = { body?: unknown; raw?: string | Buffer; contentType?: string; headers?: Record<string, string>; path?: string };

function jsonCase(kind: string, entry: RouteEntry, base: Baseline, overrides: Overrides | (() => Overrides) = {}): FuzzCase {
  return { kind, build: () => buildJson(entry, base, typeof overrides === 'function' ? overrides() : overrides) };
}

function buildJson(entry: RouteEntry, base: Baseline, overrides: Overrides): RawRequest {
  const headers = { ...base.headers, ...overrides.headers };
  let body: string | Buffer | undefined;
  if (overrides.raw !== undefined) body = overrides.raw;
  else if ('body' in overrides) body = overrides.body === undefined ? undefined : JSON.stringify(overrides.body);
  else if (base.body !== undefined) body = JSON.stringify(base.body);
  if (body !== undefined) headers['content-type'] = overrides.contentType ?? 'application/json';
  return { method: entry.method, path: overrides.path ?? buildPath(entry, base.params, undefined, base.query), headers, ...(body !== undefined ? { body } : {}) };
}

/** Dotted paths of the body's fields, one level into nested objects (transactionData.*). */
function fieldPaths(body: Record<string, unknown>): string[][] {
  const paths: string[][] = [];
  for (const [key, value] of Object.entries(body)) {
    paths.push([key]);
    if (value && typeof value === 'object' && !Array.isArray(value)) for (const inner of Object.keys(value)) paths.push([key, inner]);
  }
  return paths;
}

function setPath(body: Record<string, unknown>, at: string[], value: unknown, remove = false): Record<string, unknown> {
  // Copies along the path only (values may be deeply nested arrays that a full clone would recurse through).
  const copy = { ...body };
  let target: Record<string, unknown> = copy;
  for (const key of at.slice(0, -1)) {
    target[key] = { ...(target[key] as Record<string, unknown>) };
    target = target[key] as Record<string, unknown>;
  }
  const last = at[at.length - 1]!;
  if (remove) delete target[last];
  else target[last] = value;
  return copy;
}

function uploadCases(entry: RouteEntry, base: Baseline): fc.Arbitrary<FuzzCase> {
  const send = (kind: string, form: { body: Buffer; contentType: string }, headers: Record<string, string> = {}): FuzzCase => ({
    kind,
    build: () => ({ method: 'POST', path: entry.path, headers: { ...base.headers, 'content-type': form.contentType, ...headers }, body: form.body }),
  });
  const others = fc.oneof(
    fc.constantFrom('image', 'files', 'file[]', '', '../file').map((name) => send('upload: wrong field', multipart([{ name, filename: 'a.gif', type: 'image/gif', content: tinyGif() }]))),
    fc.constant(send('upload: two files', multipart([0, 1].map(() => ({ name: 'file', filename: 'a.gif', type: 'image/gif', content: tinyGif() }))))),
    fc.constant(send('upload: too many parts', multipart(Array.from({ length: 14 }, (_, i) => ({ name: `f${i}`, content: 'x' }))))),
    fc.constant(send('upload: huge text field', multipart([{ name: 'note', content: 'x'.repeat(70 * 1024) }, { name: 'file', filename: 'a.gif', content: tinyGif() }]))),
    fc.constant(send('upload: no file', multipart([{ name: 'title', content: 'hello' }]))),
    fc.constant(send('upload: file too large', multipart([{ name: 'file', filename: 'big.gif', type: 'image/gif', content: Buffer.concat([tinyGif(), Buffer.alloc(5 * 1024 * 1024 + 10)]) }]))),
    fc.constant(
      send('upload: truncated', (() => {
        const form = multipart([{ name: 'file', filename: 'a.gif', content: tinyGif() }]);
        return { body: form.body.subarray(0, form.body.length - 12), contentType: form.contentType };
      })()),
    ),
    fc.constant(send('upload: boundary mismatch', { body: multipart([{ name: 'file', filename: 'a.gif', content: tinyGif() }]).body, contentType: 'multipart/form-data; boundary=nope' })),
    fc.constant(send('upload: no boundary', { body: multipart([{ name: 'file', filename: 'a.gif', content: tinyGif() }]).body, contentType: 'multipart/form-data' })),
    fc.string({ unit: 'binary', maxLength: 200 }).map((garbage) => send('upload: garbage', { body: Buffer.from(garbage), contentType: 'multipart/form-data; boundary=xyz' })),
    fc
      .tuple(traversalNames, uploadContents)
      .map(([filename, content]) => send('upload: no login', multipart([{ name: 'file', filename, content }]), { authorization: '' })),
  );
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc
        .tuple(traversalNames, uploadContents, fc.constantFrom('image/gif', 'image/png', 'text/html', 'image/svg+xml', 'application/octet-stream'))
        .map(([filename, content, type]) => send('upload: odd name/content', multipart([{ name: 'file', filename, type, content }]))),
    },
    { weight: 1, arbitrary: others },
  );
}

let brokenTokensOnce: string[] | undefined;

function routeArbitrary(entry: RouteEntry): fc.Arbitrary<FuzzCase> {
  const base = baselineOf(entry);
  const variants = entry.fuzz.variants?.(w) ?? [];
  if (!variants.length) return casesFrom(entry, base);
  const bases = [base, ...variants.map((variant) => ({ ...base, params: { ...base.params, ...variant.params }, body: variant.body ?? base.body }))];
  const arbitraries = bases.map((one) => casesFrom(entry, one));
  return fc.constantFrom(...arbitraries.keys()).chain((index) => arbitraries[index]!);
}

function casesFrom(entry: RouteEntry, base: Baseline): fc.Arbitrary<FuzzCase> {
  const options: Array<{ weight: number; arbitrary: fc.Arbitrary<FuzzCase> }> = [];
  // Weights in halves (fast-check wants whole numbers).
  const add = (weight: number, arbitrary: fc.Arbitrary<FuzzCase>) => options.push({ weight: weight * 2, arbitrary });

  add(1, fc.constant(jsonCase('well-formed', entry, base)));

  const body = base.body;
  if (body && Object.keys(body).length) {
    const paths = fieldPaths(body);
    // One field at a time, bent the way its type invites (numbers past the columns, ids that are not ids, …).
    const valueFor = (at: string[]) => typedWeirdValue(at.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body));
    const fieldChange = fc.constantFrom(...paths).chain((at) => valueFor(at).map((value) => [at, value] as const));
    add(8, fieldChange.map(([at, value]) => jsonCase(`field ${at.join('.')}`, entry, base, { body: setPath(body, at, value) })));
    add(
      3,
      fc
        .array(fieldChange, { minLength: 2, maxLength: 4 })
        .map((changes) => jsonCase('several fields', entry, base, { body: changes.reduce((acc, [at, value]) => (at.length > 1 && typeof acc[at[0]!] !== 'object' ? acc : setPath(acc, at, value)), body) })),
    );
    add(2, fc.subarray(paths, { minLength: 1 }).map((gone) => jsonCase('missing fields', entry, base, { body: gone.reduce((acc, at) => (at.length > 1 && typeof acc[at[0]!] !== 'object' ? acc : setPath(acc, at, undefined, true)), body) })));
    add(
      2,
      fc
        .tuple(fc.constantFrom(...paths.filter((at) => at.length === 1)), rawNumbers)
        .map(([at, number]) => jsonCase(`raw number ${at[0]}`, entry, base, { raw: JSON.stringify(setPath(body, at, '__RAW__')).replace('"__RAW__"', number) })),
    );
    // Past the 1 MB body limit, and just under it (900 KB of two-byte characters in one field).
    const topLevel = paths.filter((at) => at.length === 1);
    add(
      1,
      fc
        .tuple(fc.constantFrom(...topLevel), fc.boolean())
        .map(([at, over]) => jsonCase(`${over ? 'huge' : '900 KB'} ${at[0]}`, entry, base, () => ({ body: setPath(body, at, over ? 'A'.repeat(HUGE) : 'é'.repeat(450_000)) }))),
    );
    add(
      2,
      fc
        .constantFrom('application/x-www-form-urlencoded', 'text/plain')
        .map((type) =>
          jsonCase(`${type} of the fields`, entry, base, {
            raw: type === 'text/plain' ? JSON.stringify(body) : new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])).toString(),
            contentType: type,
          }),
        ),
    );
  }
  add(
    2,
    fc
      .dictionary(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', 'isAdmin', 'status', 'userId', 'user', 'id', '_id', '$where', 'amount', 'ticketsSold'), fc.string({ maxLength: 12 })), weirdValue, { minKeys: 1, maxKeys: 4 })
      .map((extra) => jsonCase('extra fields', entry, base, { raw: JSON.stringify({ ...(body ?? {}), ...extra }).replace('{', `{"__proto__":{"role":"admin"},`) })),
  );
  add(2, fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom([], [body], 'text', 0, null, true)).map((shape) => jsonCase('body not an object', entry, base, { body: shape === undefined ? null : shape })));
  add(2, badJsonBodies.map((raw) => jsonCase('bad JSON', entry, base, { raw })));
  add(3, fc.tuple(garbageContentTypes, fc.oneof(badJsonBodies, fc.constant(JSON.stringify(body ?? {})))).map(([type, raw]) => jsonCase(`content-type ${type}`, entry, base, { raw, contentType: type })));
  add(0.5, fc.constant(jsonCase('huge body', entry, base, () => ({ raw: JSON.stringify({ ...(body ?? {}), pad: 'x'.repeat(HUGE) }) }))));

  const names = Object.keys(base.params);
  if (names.length) {
    add(
      5,
      fc.tuple(fc.constantFrom(...names), fc.oneof(badIds, weirdString.filter((value) => value.length < 4000))).map(([name, value]) =>
        jsonCase(`param ${name}`, entry, base, { path: buildPath(entry, { ...base.params, [name]: value }, undefined, base.query) }),
      ),
    );
    add(
      3,
      fc
        .tuple(
          fc.constantFrom(...names),
          fc.constantFrom('..%2F..%2Fetc%2Fpasswd', '..%2f..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '..%5C..%5Cwindows', '%00', 'a%00b', '%E0%A4%A', '%', '%ZZ', '%C0%AE%C0%AE%2F', '....%2F%2F....%2F%2Fetc', 'x'.repeat(5000), '%F0%9F%8E%89', '..', '.'),
        )
        .map(([name, raw]) => jsonCase(`raw param ${name}`, entry, base, { path: buildPath(entry, { ...base.params, [name]: raw }, new Set([name]), base.query) })),
    );
  }
  add(
    1,
    fc
      .constantFrom('/..', '/../..', '/%2e%2e/%2e%2e/etc/passwd', '//', '/;x', '/.', '%2F..%2F..', '/x/y/z')
      .map((suffix) => jsonCase(`path suffix ${suffix}`, entry, base, { path: `${buildPath(entry, base.params)}${suffix}` })),
  );

  const query = base.query ?? {};
  const queryKeys = Object.keys(query);
  add(
    queryKeys.length ? 4 : 1,
    fc
      .tuple(fc.constantFrom(...(queryKeys.length ? queryKeys : ['q', 'limit', 'page'])), fc.oneof(weirdString.filter((value) => value.length < 4000), weirdNumber.map(String), badIds))
      .map(([key, value]) => jsonCase(`query ${key}`, entry, base, { path: buildPath(entry, base.params, undefined, { ...query, [key]: value }) })),
  );
  add(
    1,
    fc
      .constantFrom('limit=1&limit=2', 'q[a]=1', 'q=%', 'q=%00', 'page=-1', 'page=1e3', 'limit=0x10', 'from=2025-02-30', 'to=9999-99-99', 'free=maybe', 'format=xml', 'olderThan=-5', '&&&==', `q=${'a'.repeat(3000)}`)
      .map((raw) => jsonCase(`raw query ${raw.slice(0, 20)}`, entry, base, { path: buildPath(entry, base.params, undefined, [new URLSearchParams(query).toString(), raw].filter(Boolean).join('&')) })),
  );

  const tokens = brokenTokensOnce ??= brokenTokens(t.config.jwtSecret);
  add(2, fc.constantFrom(...tokens).map((value) => jsonCase('broken token', entry, base, { headers: { authorization: value } })));
  if (entry.fuzz.internal || entry.path.startsWith('/api/internal')) {
    add(2, fc.constantFrom('', 'x', `${tools.internalKey}x`, tools.internalKey.toUpperCase(), ` ${tools.internalKey}`, 'k'.repeat(5000)).map((key) => jsonCase('bad internal key', entry, base, { headers: { 'x-internal-key': key } })));
  }
  if (entry.fuzz.upload) add(12, uploadCases(entry, base));
  return fc.oneof(...options);
}

// ---- running ----------------------------------------------------------------------------------

interface Outcome {
  fuzz: FuzzCase;
  status: number;
  problems: string[];
  /** Short description of the request, for reports. */
  description: string;
  api: boolean;
}

const describeRequest = (kind: string, request: RawRequest) => {
  const body = request.body === undefined ? '' : String(request.body);
  return `${request.method} ${request.path.slice(0, 160)} [${kind}] ${request.headers?.['content-type'] ?? ''} ${body.length > 200 ? `${body.slice(0, 200)}… (${body.length} chars)` : body}`;
};

/** What is wrong with one answer (nothing, usually). */
function problemsOf(request: RawRequest, res: RawResponse): string[] {
  const problems: string[] = [];
  const sentBody = typeof request.body === 'string' ? request.body : (request.body?.toString('latin1') ?? '');
  if (res.status >= 500) problems.push(`${res.status} ${res.text.slice(0, 200)}`);
  else if (res.status >= 400) problems.push(...errorBodyProblems(res, `${request.path} ${sentBody} ${decodeURIComponentSafe(request.path)}`));
  if (/root:x:0:0/.test(res.text) && !sentBody.includes('root:x:0:0')) problems.push('served /etc/passwd');
  if (res.text.includes(t.config.jwtSecret) || res.text.includes(tools.internalKey)) problems.push('leaked a server secret');
  return problems;
}

async function runAll(cases: FuzzCase[], onDone?: (outcome: Outcome) => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= cases.length) return;
      const fuzz = cases[index]!;
      const request = fuzz.build();
      const description = describeRequest(fuzz.kind, request);
      const api = request.path.startsWith('/api');
      try {
        const res = await rawRequest(t.url, request, 60_000);
        outcomes[index] = { fuzz, status: res.status, problems: problemsOf(request, res), description, api };
      } catch (error) {
        outcomes[index] = { fuzz, status: 0, problems: [`no answer: ${String((error as Error).message ?? error)}`], description, api };
      }
      onDone?.(outcomes[index]!);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return outcomes;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

describe('inputs the fuzz run found answering 500 (fixed at the validation)', () => {
  const json = (person: Person | undefined, method: string, route: string, body: unknown, headers: Record<string, string> = {}) => tools.call(person, method, route, body, headers);

  it('refuses lone surrogates and NUL in any accepted string with a 400 naming the field', async () => {
    const chat = await json(w.a, 'POST', '/api/messages/addmsg', { from: w.a.user._id, to: w.b.user._id, message: '\udc66\uddc8' });
    expect(chat.status).toBe(400);
    expect(chat.body).toMatchObject({ msg: 'message is not valid text (broken Unicode characters).', field: 'message' });
    const event = await json(w.a, 'POST', '/api/events/addevnt', { title: 'Jazz \udc00\udc00', description: 'x', date: '2031-01-01T18:00', location: 'Nairobi' });
    expect(event.status).toBe(400);
    expect(event.body.field).toBe('title');
    // Account calls keep their 2xx {status:false, msg} shape.
    const resend = await json(undefined, 'POST', '/api/auth/resend-verification', { username: '\u0000\u0000' });
    expect(resend.status).toBe(200);
    expect(resend.body).toMatchObject({ status: false, msg: 'username must not contain null characters.' });
    const login = await json(undefined, 'POST', '/api/auth/login', { username: `${w.a.user.username}\u0000`, password: w.a.password });
    expect(login.body).toMatchObject({ status: false });
    expect(login.body.token).toBeUndefined();
  });

  it('answers a multipart part header it cannot read (NUL in the file name) with a 400', async () => {
    const form = multipart([{ name: 'file', filename: 'a\u0000.gif', type: 'image/gif', content: tinyGif() }]);
    const res = await rawRequest(t.url, { method: 'POST', path: '/api/uploads', headers: { authorization: `Bearer ${w.a.token}`, 'content-type': form.contentType }, body: form.body });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('The upload could not be read. Send the image as multipart/form-data.');
  });

  it('refuses a settle ResultCode wider than the 32-bit column', async () => {
    for (const resultCode of [2 ** 31, -(2 ** 31) - 1, '99999999999']) {
      const res = await json(undefined, 'POST', '/api/internal/payments/settle', { checkoutRequestId: w.pool.pendingCheckouts[0], resultCode, source: 'callback' }, { 'x-internal-key': tools.internalKey });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('ResultCode is not valid.');
    }
  });
});

describe('malformed input against every route', () => {
  it('covers every mounted API route', () => {
    const mounted = mountedApiRoutes(t).map(routeKey).sort();
    expect(mounted.filter((key) => !routeTable.some((entry) => routeKey(entry) === key))).toEqual([]);
  });

  it(`answers ${PHASE1_REQUESTS}+ malformed requests without a 5xx, with clear 4xx messages, and refused requests change nothing`, async () => {
    const started = Date.now();
    const filesBefore = filesUnder(t.config.dataDir);

    // Each route gets its own seeded stream, sized by how much it takes in (fields, path and query
    // parameters, well-formed variants), then the streams are interleaved.
    const weights = routeTable.map((entry) => {
      const base = baselineOf(entry);
      const inputs = Object.keys(base.body ?? {}).length + Object.keys(base.params).length + Object.keys(base.query ?? {}).length;
      return 3 + inputs + Math.min(4, entry.fuzz.variants?.(w).length ?? 0) + (entry.fuzz.upload ? 6 : 0);
    });
    const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
    const streams = routeTable.map((entry, index) =>
      fc.sample(routeArbitrary(entry), { seed: SEED + index, numRuns: Math.ceil((PHASE1_REQUESTS * weights[index]!) / totalWeight) }),
    );
    const cases: FuzzCase[] = [];
    for (let i = 0; streams.some((stream) => i < stream.length); i++) for (const stream of streams) if (i < stream.length) cases.push(stream[i]!);
    // Traversal straight at the static upload files.
    for (const raw of ['..%2F..%2F..%2Fetc%2Fpasswd', '../../../../etc/passwd', '%2e%2e/%2e%2e/%2e%2e/etc/passwd', '....//....//etc/passwd', '%00', '..%5C..%5Cjwt-secret', '.%2E/jwt-secret', '..%2Fjwt-secret']) {
      cases.push({ kind: 'uploads traversal', build: () => ({ method: 'GET', path: `/uploads/${raw}` }) });
    }

    const statusCounts = new Map<number, number>();
    const phase1 = await runAll(cases, (outcome) => statusCounts.set(outcome.status, (statusCounts.get(outcome.status) ?? 0) + 1));
    const phase1Ms = Date.now() - started;

    const failures = phase1.flatMap((outcome) => outcome.problems.map((problem) => `${problem}\n    ← ${outcome.description}`));
    const fiveXx = phase1.filter((outcome) => outcome.status >= 500).length;

    // Phase 2: the refused requests again, 8 at a time, each batch between two marks of the change log (every table).
    const refused = phase1.filter((outcome) => outcome.status >= 400 && outcome.status < 500 && outcome.api);
    const replay = fc.sample(fc.shuffledSubarray(refused, { minLength: Math.min(PHASE2_MAX, refused.length), maxLength: Math.min(PHASE2_MAX, refused.length) }), { seed: SEED, numRuns: 1 })[0]!;
    let batches = 0;
    let inconclusive = 0;
    let phase2Requests = 0;
    let phase2FiveXx = 0;
    const dbFailures: string[] = [];
    await installChangeLog(t);
    for (let i = 0; i < replay.length; i += CONCURRENCY) {
      const batch = replay.slice(i, i + CONCURRENCY).map((outcome) => outcome.fuzz);
      const mark = await changeLogMark(t);
      const outcomes = await runAll(batch);
      const changed = await tablesChangedSince(t, mark);
      phase2Requests += batch.length;
      phase2FiveXx += outcomes.filter((outcome) => outcome.status >= 500).length;
      for (const outcome of outcomes) for (const problem of outcome.problems) failures.push(`replay: ${problem}\n    ← ${outcome.description}`);
      if (!outcomes.every((outcome) => outcome.status >= 400 && outcome.status < 500)) {
        inconclusive += 1;
        continue;
      }
      batches += 1;
      if (changed.length) dbFailures.push(`refused batch changed ${changed.join(', ')}:\n${outcomes.map((outcome) => `    ${outcome.description}`).join('\n')}`);
    }

    if (process.env.FUZZ_VERBOSE) {
      // Statuses per route and kind of malformation, to see what the run reached.
      const byRoute = new Map<string, Map<number, number>>();
      for (const outcome of phase1) {
        const key = `${outcome.description.split('?')[0]!.split(' ')[0]} ${outcome.description.split(' ')[1]!.split('?')[0]!.split('/').slice(0, 4).join('/')} ${outcome.fuzz.kind.split(' ')[0]}`;
        const counts = byRoute.get(key) ?? new Map<number, number>();
        counts.set(outcome.status, (counts.get(outcome.status) ?? 0) + 1);
        byRoute.set(key, counts);
      }
      for (const [key, counts] of [...byRoute.entries()].sort()) console.log(key, [...counts.entries()].map(([status, n]) => `${status}:${n}`).join(' '));
    }
    const health = await rawRequest(t.url, { method: 'GET', path: '/api/health' });
    const filesAfter = filesUnder(t.config.dataDir);
    const newFiles = filesAfter.filter((file) => !filesBefore.includes(file));
    const strayFiles = newFiles.filter((file) => !/^uploads\/[0-9a-f]{24}\.(gif|png|jpg|webp)$/.test(file));

    const total = phase1.length + phase2Requests + 1;
    const seconds = (Date.now() - started) / 1000;
    const statuses = [...statusCounts.entries()].sort((a, b) => a[0] - b[0]).map(([status, n]) => `${status}:${n}`).join(' ');
    console.log(
      `[security-fuzz] seed ${SEED}: ${total} requests (phase 1 ${phase1.length} in ${(phase1Ms / 1000).toFixed(1)} s, phase 2 ${phase2Requests} refused replays in ${batches} compared batches, ${inconclusive} inconclusive), ` +
        `5xx ${fiveXx + phase2FiveXx}, ${seconds.toFixed(1)} s total, concurrency ${CONCURRENCY}, ${routeTable.length} routes; statuses ${statuses}; ${newFiles.length} uploaded files`,
    );

    expect(failures.slice(0, 40), `${failures.length} problems`).toEqual([]);
    expect(dbFailures.slice(0, 10)).toEqual([]);
    expect(fiveXx + phase2FiveXx).toBe(0);
    expect(health.status).toBe(200);
    expect(strayFiles).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(10_000);
    expect(batches).toBeGreaterThan(inconclusive);
  }, 600_000);
});
