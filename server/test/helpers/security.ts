import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { isErrorCode } from '@tukio/shared/error-codes';
import { createApp } from '../../src/app.js';
import { newId, SYSTEM_USER_ID } from '../../src/db/ids.js';
import { tickets } from '../../src/db/schema.js';
import { createLogger } from '../../src/lib/logger.js';
import { listDeclaredRoutes, type DeclaredRoute } from '../../src/lib/route-declaration.js';
import { listRoutes, type MountedRoute } from '../../src/lib/routes.js';
import { insertEventRow } from './events.js';
import type { TestServer } from './test-server.js';

/** Who sends a request in the authorization matrix. */
export const ACTORS = ['visitor', 'user', 'owner', 'other', 'admin'] as const;
export type BaseActor = (typeof ACTORS)[number];
/**
 * A's team (docs/decisions/teams.md), each on all of A's events: the matrix tries every organiser-scoped
 * route (a declaration with `team`) as each of them too, beside the strangers B and C.
 */
export const TEAM_ACTORS = { coOrganiser: 'co_organiser', finance: 'finance', gateStaff: 'gate_staff' } as const;
export type TeamActor = keyof typeof TEAM_ACTORS;
export type Actor = BaseActor | TeamActor;

export interface Person {
  token: string;
  password: string;
  user: { _id: string; username: string; email: string; role: string };
}

/**
 * Real resources the matrix and the fuzz run act on. A ("owner") owns the events and wrote the
 * comment, review, thread and post; B ("other") is A's chat partner and holds a ticket to A's event,
 * so B is the most privileged non-owner; C ("user") is signed in with no relation to any of it.
 */
export interface World {
  t: TestServer;
  a: Person;
  b: Person;
  c: Person;
  admin: Person;
  /** A's co-organiser, finance and gate staff, for all of A's events. */
  team: Record<TeamActor, Person>;
  events: { approved: string; pending: string; past: string; paid: string };
  pendingTitle: string;
  commentId: string;
  reviewId: string;
  threadId: string;
  postId: string;
  chatSecret: string;
  checkoutRequestId: string;
  receipt: string;
  orderId: string;
  aTicketCodes: string[];
  bTicketCode: string;
  /** B's unpaid checkouts for the fuzz run to bend: pushes still pending, orders not pushed yet. */
  pool: { pendingCheckouts: string[]; openOrders: string[] };
  /** Values only some actors may ever see in a response. */
  secrets: Secret[];
  personOf(actor: Actor): Person | undefined;
}

export interface Secret {
  name: SecretName;
  value: string;
  /** Actors allowed to receive it; [] = nobody, ever. */
  allowed: readonly Actor[];
}
export type SecretName = 'aEmail' | 'aPassword' | 'chat' | 'pendingTitle' | 'aTicketCode' | 'bTicketCode' | 'checkoutRequestId' | 'receipt' | 'jwtSecret' | 'internalKey';

const tag = () => randomBytes(4).toString('hex');

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

export interface RawRequest {
  method: string;
  /** Sent exactly as given (no URL normalisation), so `..` and odd escapes reach the server. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** A plain node:http request: raw paths, any bytes as body, any headers. */
export function rawRequest(baseUrl: string, request: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
    const req = http.request(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${request.method} ${request.path}`)));
    req.on('error', reject);
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

export function jsonRequest(method: string, path: string, options: { token?: string | undefined; body?: unknown; headers?: Record<string, string> } = {}): RawRequest {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return { method, path, headers, ...(body !== undefined ? { body } : {}) };
}

/** A tiny GIF: the upload endpoint types files by their content. */
export const tinyGif = () => Buffer.concat([Buffer.from('GIF89a', 'ascii'), Buffer.from([1, 0, 1, 0, 0, 0, 0]), Buffer.from(';')]);

export function multipart(parts: Array<{ name: string; filename?: string; type?: string; content: string | Buffer }>, boundary = `----tukio${tag()}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** An app built by the same factory as the running server (routes are walked, never called). */
function appOf(t: TestServer) {
  return createApp({ config: t.config, db: t.db, mailer: { send: async () => undefined, close: () => undefined }, logger: createLogger('silent') }).app;
}

/** The API routes the app really mounts (walked with listRoutes). */
export function mountedApiRoutes(t: TestServer): MountedRoute[] {
  return listRoutes(appOf(t)).filter((route) => route.path.startsWith('/api'));
}

/** The declarations of the API routes (route-declaration.ts): who may call each one, its schemas. */
export function declaredApiRoutes(t: TestServer): DeclaredRoute[] {
  return listDeclaredRoutes(appOf(t)).filter((route) => route.fullPath.startsWith('/api'));
}

async function tableNames(t: TestServer): Promise<string[]> {
  const result = (await t.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as { rows: Array<{ table_name: string }> };
  return result.rows.map((row) => row.table_name);
}

/**
 * Tables compared in part. A background job changes some on its own while requests run, so only which rows exist
 * counts there: the mail sender marks queued mails sent (and drops their bodies) whenever it runs, the SMS sender
 * and its delivery reports mark messages sent and delivered; a request that queued a mail or an SMS still shows as
 * a new row. A wrong payout-destination code is refused and still counted against its request (5 lock it): that
 * count and the lock are the refusal's one write by design, like failed logins; every other column is compared.
 */
const COMPARED_IN_PART: Record<string, { rowsOnly: true } | { columns: string[] }> = {
  mail_outbox: { rowsOnly: true },
  sms_messages: { rowsOnly: true },
  payout_accounts: { columns: ['id', 'user_id', 'method', 'phone', 'shortcode', 'account_reference', 'code_phone', 'code_hash', 'code_expires_at', 'confirmed_at', 'held_until'] },
};

/**
 * Waits for writes an earlier request set going in the background, so they do not land in whichever request is
 * measured next: mail built after a request answered (an event's cancellation notices) reaches the outbox, and a
 * "download my data" request's archive is built by its job (the archive and its mail in one transaction).
 */
async function settleBackgroundWrites(t: TestServer): Promise<void> {
  await vi.waitFor(
    () => {
      if (t.services.tickets.mailQueueDepth() + t.services.auth.mailQueueDepth() > 0) throw new Error('mail is still being queued');
    },
    { timeout: 15_000, interval: 10 },
  );
  await vi.waitFor(
    async () => {
      const pending = (await t.db.execute(sql.raw(`select count(*)::int as n from data_exports where status = 'requested'`))) as unknown as { rows: Array<{ n: number }> };
      if (Number(pending.rows[0]?.n ?? 0) > 0) throw new Error('a data export is still being built');
    },
    { timeout: 30_000, interval: 50 },
  );
}

/**
 * Which tables a request changed, kept by the database as it happens: a trigger on every table notes each row
 * inserted, deleted or really changed (an UPDATE to the same values is no change) in test_audit.change_log, the
 * tables compared in part (above) as they say. A cell of the authorization matrix (or a batch of refused fuzz
 * requests) then asks which tables changed since its mark, where hashing every table before and after cost about
 * 55 ms a cell. The log lives in a schema of its own, outside every table it watches.
 */
export async function installChangeLog(t: TestServer): Promise<void> {
  const run = (statement: string) => t.db.execute(sql.raw(statement));
  await run('create schema if not exists test_audit');
  await run('create table if not exists test_audit.change_log (id bigserial primary key, table_name text not null)');
  // Arguments: 'rows' (only inserts and deletes count) or 'columns' followed by the columns compared.
  await run(`create or replace function test_audit.note_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        if tg_nargs > 0 and tg_argv[0] = 'rows' then return null; end if;
        if tg_nargs > 0 and tg_argv[0] = 'columns' then
          if (select jsonb_object_agg(key, value) from jsonb_each(to_jsonb(old)) where key = any(tg_argv[1:]))
             is not distinct from (select jsonb_object_agg(key, value) from jsonb_each(to_jsonb(new)) where key = any(tg_argv[1:])) then
            return null;
          end if;
        elsif to_jsonb(old) = to_jsonb(new) then
          return null;
        end if;
      end if;
      insert into test_audit.change_log (table_name) values (tg_table_name);
      return null;
    end $$`);
  for (const name of await tableNames(t)) {
    const rule = COMPARED_IN_PART[name];
    const args = !rule ? '' : 'rowsOnly' in rule ? `'rows'` : ['columns', ...rule.columns].map((arg) => `'${arg}'`).join(', ');
    await run(`drop trigger if exists test_audit_change on "${name}"`);
    await run(`create trigger test_audit_change after insert or update or delete on "${name}" for each row execute function test_audit.note_change(${args})`);
  }
}

/** Where the change log stands (after background writes settle): what `tablesChangedSince` counts from. */
export async function changeLogMark(t: TestServer): Promise<number> {
  await settleBackgroundWrites(t);
  const result = (await t.db.execute(sql.raw('select coalesce(max(id), 0)::bigint as id from test_audit.change_log'))) as unknown as { rows: Array<{ id: string | number }> };
  return Number(result.rows[0]?.id ?? 0);
}

/** Tables with a row inserted, deleted or changed since `mark` (after background writes settle), by name. */
export async function tablesChangedSince(t: TestServer, mark: number): Promise<string[]> {
  await settleBackgroundWrites(t);
  const result = (await t.db.execute(sql.raw(`select distinct table_name from test_audit.change_log where id > ${Number(mark)} order by table_name`))) as unknown as {
    rows: Array<{ table_name: string }>;
  };
  return result.rows.map((row) => row.table_name);
}

/** What a 4xx body must look like: a clear `msg`, and nothing from the inside of the server. */
const internals: Array<[string, RegExp]> = [
  ['stack trace', /\n\s+at .+\(.+:\d+:\d+\)|\bat (async )?[\w.<>]+ \(\/|node_modules|node:internal|\/work\/|\.ts:\d+/],
  ['SQL', /\b(select|insert into|update|delete from)\b[\s\S]{0,80}\b(from|where|values|set|returning)\b|syntax error at|relation "|violates .* constraint|duplicate key|Failed query|\$\d+\b.*params/i],
  ['error internals', /\b(Error|TypeError|RangeError|SyntaxError|ZodError|PostgresError|DrizzleQueryError):|\[object Object\]|undefined is not|cannot read propert/i],
];

/**
 * Problems with an error answer. Text the request itself carried (an echoed search word, say) is
 * not counted as a leak; only what the server added.
 */
export function errorBodyProblems(res: RawResponse, sent = ''): string[] {
  const problems: string[] = [];
  const body = res.body as { msg?: unknown } | undefined;
  if (!String(res.headers['content-type'] ?? '').includes('application/json')) problems.push(`not JSON (${String(res.headers['content-type'])})`);
  if (!body || typeof body !== 'object' || typeof body.msg !== 'string' || !body.msg.trim()) problems.push('no msg');
  // Every failure names what went wrong for the client to say it in the user's language.
  else if (!isErrorCode((body as { code?: unknown }).code)) problems.push(`no known error code (${JSON.stringify((body as { code?: unknown }).code)})`);
  for (const [what, pattern] of internals) {
    const found = pattern.exec(res.text);
    if (found && !sent.includes(found[0])) problems.push(`${what}: ${JSON.stringify(found[0])}`);
  }
  return problems;
}

const insertEvent = (t: TestServer, input: Parameters<typeof insertEventRow>[1]) => insertEventRow(t.db, input);

export interface WorldTools {
  w: World;
  /** A request as `actor` (token added), straight to the server. */
  send(actor: Actor, request: RawRequest): Promise<RawResponse>;
  call(person: Person | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  /** Fresh resources for destructive cells, so every cell acts on its own copy. */
  fresh: {
    event(options?: { status?: 'approved' | 'pending'; days?: number; owner?: Person }): Promise<string>;
    comment(): Promise<string>;
    review(): Promise<string>;
    post(): Promise<string>;
    bTicketCode(eventId: string): Promise<string>;
    pastEventWithAttendees(): Promise<string>;
    /** A's paid event with one order B paid for. */
    paidEventWithOrder(): Promise<string>;
    /** A's event, cancelled by A. */
    cancelledEvent(options?: { status?: 'approved' | 'pending' }): Promise<string>;
    /** A's free event with one seat, taken by C: sold out, so people may join its waitlist. */
    soldOutEvent(): Promise<string>;
  };
  internalKey: string;
}

async function ok(res: RawResponse, what: string) {
  if (res.status >= 300) throw new Error(`${what} failed: ${res.status} ${res.text.slice(0, 300)}`);
  return res;
}

/** Builds the world on a running test server. */
export async function buildWorld(t: TestServer, options: { pendingPayments?: number } = {}): Promise<WorldTools> {
  const id = tag();
  const people = async (name: string) => {
    const password = `pw-${name}-${tag()}`;
    const person = await t.createUser(name, password);
    return { ...person, password } as Person;
  };
  const a = await people(`amina${id}`);
  const b = await people(`baraka${id}`);
  const c = await people(`chebet${id}`);
  const adminLogin = await t.loginAdmin();
  const admin: Person = { ...adminLogin, password: 'admin-password' };
  const internalKey = t.config.internalApiKey;

  const call = async (person: Person | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    rawRequest(t.url, jsonRequest(method, path, { token: person?.token, body, headers }));

  const pendingTitle = `Secret pending gala ${id}`;
  const approved = await insertEvent(t, { ownerId: a.user._id, days: 10, title: `Amina open day ${id}` });
  const pending = await insertEvent(t, { ownerId: a.user._id, days: 12, status: 'pending', title: pendingTitle });
  const past = await insertEvent(t, { ownerId: a.user._id, days: -2, title: `Amina past fair ${id}` });
  const paid = await insertEvent(t, { ownerId: SYSTEM_USER_ID, days: 15, price: 500, capacity: 100, title: `Paid concert ${id}` });

  // A's team, invited to all of A's events and accepted, through the API.
  const team = {} as Record<TeamActor, Person>;
  for (const [actor, role] of Object.entries(TEAM_ACTORS) as Array<[TeamActor, string]>) {
    const person = await people(`${actor.slice(0, 4).toLowerCase()}${id}`);
    const invited = await ok(await call(a, 'POST', '/api/teams/invitations', { invitee: person.user.username, role, eventId: null }), `A invites ${actor}`);
    await ok(await call(person, 'POST', `/api/teams/invitations/${invited.body._id}/accept`), `${actor} accepts`);
    team[actor] = person;
  }

  // Registrations: A and B hold tickets to A's open event (signed codes, through the API) and to the past one.
  await ok(await call(a, 'POST', `/api/events/register/${approved}`, { tickets: 1 }), 'A registers');
  await ok(await call(b, 'POST', `/api/events/register/${approved}`, { tickets: 1 }), 'B registers');
  for (const person of [a, b]) {
    await t.db.insert(tickets).values({ id: newId(), eventId: past, userId: person.user._id, code: `test-${tag()}${tag()}` });
  }

  const comment = await ok(await call(a, 'POST', '/api/comments/add', { content: 'Looking forward to it', eventId: approved, userId: a.user._id }), 'comment');
  const review = await ok(await call(a, 'POST', '/api/reviews/add', { content: 'Great fair', rating: 5, eventId: past, userId: a.user._id }), 'review');
  const thread = await ok(await call(a, 'POST', '/api/forums/add-thread', { title: 'Parking?', eventId: approved, userId: a.user._id }), 'thread');
  const post = await ok(
    await call(a, 'POST', '/api/forums/add-post', { content: 'Where do we park?', threadId: thread.body.thread._id, parentId: null, userId: a.user._id }),
    'post',
  );

  const chatSecret = `psst-${id}-meet at gate B`;
  await ok(await call(a, 'POST', '/api/messages/addmsg', { from: a.user._id, to: b.user._id, message: chatSecret }), 'chat A->B');
  await ok(await call(b, 'POST', '/api/messages/addmsg', { from: b.user._id, to: a.user._id, message: `${chatSecret} (reply)` }), 'chat B->A');

  // A paid order, the way the payment service records it: order, push, settled callback.
  const internal = { 'x-internal-key': internalKey };
  const pay = async (person: Person, eventId: string, order: { quantity: number; phone: string; checkoutRequestId: string; receipt: string }) => {
    const held = await ok(await call(person, 'POST', '/api/internal/payments/orders', { eventId, quantity: order.quantity, phone: order.phone }, internal), 'order');
    const merchantRequestId = `mr-${order.checkoutRequestId}`;
    await ok(await call(undefined, 'POST', '/api/internal/payments/pushes', { orderId: held.body.orderId, checkoutRequestId: order.checkoutRequestId, merchantRequestId }, internal), 'push');
    const settled = await ok(
      await call(
        undefined,
        'POST',
        '/api/internal/payments/settle',
        { checkoutRequestId: order.checkoutRequestId, merchantRequestId, resultCode: 0, resultDesc: 'ok', amount: held.body.amount, mpesaReceiptNumber: order.receipt, phone: order.phone, source: 'callback' },
        internal,
      ),
      'settle',
    );
    if (settled.body.orderStatus !== 'paid') throw new Error(`settle did not pay: ${settled.text}`);
    return held.body.orderId as string;
  };
  const checkoutRequestId = `ws_CO_${id}SECRET${tag()}`;
  const receipt = `SEC${id}`.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 12);
  const orderId = await pay(a, paid, { quantity: 2, phone: '254712345678', checkoutRequestId, receipt });

  const pool: World['pool'] = { pendingCheckouts: [], openOrders: [] };
  for (let i = 0; i < (options.pendingPayments ?? 0); i++) {
    const open = await ok(await call(b, 'POST', '/api/internal/payments/orders', { eventId: paid, quantity: 1, phone: '254712345679' }, internal), 'open order');
    pool.openOrders.push(open.body.orderId);
    const pushed = await ok(await call(b, 'POST', '/api/internal/payments/orders', { eventId: paid, quantity: 1, phone: '254712345679' }, internal), 'pushed order');
    const pending = `ws_CO_${id}pending${i}`;
    await ok(await call(undefined, 'POST', '/api/internal/payments/pushes', { orderId: pushed.body.orderId, checkoutRequestId: pending, merchantRequestId: `mr-${id}-${i}` }, internal), 'pending push');
    pool.pendingCheckouts.push(pending);
  }

  const aMine = await ok(await call(a, 'GET', '/api/tickets/mine'), 'A tickets');
  const bMine = await ok(await call(b, 'GET', '/api/tickets/mine'), 'B tickets');
  const aTicketCodes = (aMine.body as Array<{ code: string }>).map((ticket) => ticket.code);
  const bTicketCode = (bMine.body as Array<{ code: string; event: { _id: string } }>).find((ticket) => ticket.event._id === approved)!.code;
  if (aTicketCodes.length !== 4) throw new Error(`A should hold 4 tickets (open event, past event, 2 paid), holds ${aTicketCodes.length}`);

  const secrets: Secret[] = [
    { name: 'aEmail', value: a.user.email, allowed: ['owner', 'admin'] },
    { name: 'aPassword', value: a.password, allowed: [] },
    { name: 'chat', value: chatSecret, allowed: ['owner', 'other'] },
    { name: 'pendingTitle', value: pendingTitle, allowed: ['owner', 'admin'] },
    ...aTicketCodes.map((value) => ({ name: 'aTicketCode' as const, value, allowed: ['owner'] as const })),
    { name: 'bTicketCode', value: bTicketCode, allowed: ['other'] },
    { name: 'checkoutRequestId', value: checkoutRequestId, allowed: ['owner', 'admin'] },
    { name: 'receipt', value: receipt, allowed: ['owner', 'admin'] },
    { name: 'jwtSecret', value: t.config.jwtSecret, allowed: [] },
    { name: 'internalKey', value: internalKey, allowed: [] },
  ];

  const w: World = {
    t,
    a,
    b,
    c,
    admin,
    team,
    events: { approved, pending, past, paid },
    pendingTitle,
    commentId: comment.body.comment._id,
    reviewId: review.body.review._id,
    threadId: thread.body.thread._id,
    postId: post.body.post._id,
    chatSecret,
    checkoutRequestId,
    receipt,
    orderId,
    aTicketCodes,
    bTicketCode,
    pool,
    secrets,
    personOf: (actor) => ({ visitor: undefined, user: c, owner: a, other: b, admin, ...team })[actor],
  };

  const send = (actor: Actor, request: RawRequest) => {
    const person = w.personOf(actor);
    const headers = { ...request.headers };
    if (person && headers.authorization === undefined) headers.authorization = `Bearer ${person.token}`;
    return rawRequest(t.url, { ...request, headers });
  };

  const fresh: WorldTools['fresh'] = {
    event: (options = {}) => insertEvent(t, { ownerId: (options.owner ?? a).user._id, days: options.days ?? 9, status: options.status ?? 'approved' }),
    async comment() {
      const res = await ok(await call(a, 'POST', '/api/comments/add', { content: `note ${tag()}`, eventId: approved }), 'fresh comment');
      return res.body.comment._id as string;
    },
    async review() {
      const eventId = await fresh.pastEventWithAttendees();
      const res = await ok(await call(a, 'POST', '/api/reviews/add', { content: 'ok', rating: 4, eventId }), 'fresh review');
      return res.body.review._id as string;
    },
    async post() {
      const res = await ok(await call(a, 'POST', '/api/forums/add-post', { content: `post ${tag()}`, threadId: w.threadId, parentId: null }), 'fresh post');
      return res.body.post._id as string;
    },
    async bTicketCode(eventId: string) {
      await ok(await call(b, 'POST', `/api/events/register/${eventId}`, { tickets: 1 }), 'fresh B ticket');
      const mine = await ok(await call(b, 'GET', '/api/tickets/mine'), 'B tickets');
      return (mine.body as Array<{ code: string; event: { _id: string } }>).find((ticket) => ticket.event._id === eventId)!.code;
    },
    async paidEventWithOrder() {
      const eventId = await insertEvent(t, { ownerId: a.user._id, days: 9, price: 100 });
      await pay(b, eventId, { quantity: 1, phone: '254712345679', checkoutRequestId: `ws_CO_fresh${tag()}${tag()}`, receipt: `FR${tag()}`.toUpperCase() });
      return eventId;
    },
    async cancelledEvent(options = {}) {
      const eventId = await fresh.event(options);
      await ok(await call(a, 'POST', `/api/events/${eventId}/cancel`, { reason: 'The venue is closed for repairs.' }), 'cancel');
      return eventId;
    },
    async soldOutEvent() {
      const eventId = await insertEvent(t, { ownerId: a.user._id, days: 9, capacity: 1 });
      await ok(await call(c, 'POST', `/api/events/register/${eventId}`, { tickets: 1 }), 'sold out');
      return eventId;
    },
    async pastEventWithAttendees() {
      const eventId = await insertEvent(t, { ownerId: a.user._id, days: -1 });
      for (const person of [a, b]) {
        await t.db.insert(tickets).values({ id: newId(), eventId, userId: person.user._id, code: `test-${tag()}${tag()}` });
      }
      return eventId;
    },
  };

  return { w, send, call, fresh, internalKey };
}

/** Ticket emails go out after their request answered; let the inbox settle before closing the server. */
export async function quiesce(t: TestServer, maxMs = 5000) {
  const deadline = Date.now() + maxMs;
  let seen = -1;
  while (seen !== t.smtp.inbox.length && Date.now() < deadline) {
    seen = t.smtp.inbox.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

/** Secrets in a response that the actor may not see. */
export function leakedSecrets(w: World, actor: Actor, text: string, allowedHere: readonly SecretName[] = []): string[] {
  return w.secrets
    .filter((secret) => !secret.allowed.includes(actor) && !allowedHere.includes(secret.name) && text.includes(secret.value))
    .map((secret) => secret.name);
}
