import { eq } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { payments, refunds, users } from '../../src/db/schema.js';
import type { RawRequest, RawResponse, SecretName, World, WorldTools, Actor, BaseActor, Person, TeamActor } from './security.js';
import { TEAM_ACTORS } from './security.js';
import { roleAllows } from '../../src/lib/team-access.js';
import { jsonRequest, multipart, tinyGif } from './security.js';
import { dayFromNow } from './events.js';
import { payoutCodeSentTo } from './sms.js';
import type { DeclaredRoute } from '../../src/lib/route-declaration.js';

/**
 * Every API route the server mounts, classified. The authorization matrix and the malformed-input
 * run both read this table, and both fail when a mounted route is missing from it, so a new route
 * cannot ship without saying who may call it.
 */

/** Expected status per actor: one status, or any of several. */
export type Expectation = Record<BaseActor, number | readonly number[]>;

export interface Scenario {
  name: string;
  /** The request for `actor` (the runner adds the actor's token); may first create fresh resources. */
  request(tools: WorldTools, actor: Actor): Promise<RawRequest> | RawRequest;
  /**
   * The status each actor must get. Left out, it is the route's declared row (`expectedRow`): the
   * declaration's access decides who gets `ok` and who is refused.
   */
  expect?: Expectation;
  /** The success status of the declared row (200 when not given); only without `expect`. */
  ok?: number;
  /**
   * Why this request is answered before the route's gate (a middleware on the same path, e.g. the
   * contact form sharing the chat send paths): its `expect` is then not held to the declaration.
   */
  beforeGate?: string;
  /** Secrets this scenario legitimately hands out to whoever gets a 2xx (logging in with A's password shows A's email). */
  reveals?: readonly SecretName[];
  /** Actors whose 2xx must leave the database untouched too (GET requests always must). */
  readOnlyFor?: readonly Actor[];
  check?(res: RawResponse, tools: WorldTools, actor: Actor): string | undefined | Promise<string | undefined>;
  /** Runs after the cell (e.g. logout revoked the actor's token: log in again). */
  after?(tools: WorldTools, actor: Actor): Promise<void>;
}

/** How a well-formed request to the route looks; the fuzz run bends it out of shape. */
export interface FuzzSpec {
  /** Whose credentials the well-formed request carries. */
  as: 'visitor' | 'a' | 'b' | 'admin';
  /** Values for the route's path parameters. */
  params?(w: World, as: Person | undefined): Record<string, string>;
  query?(w: World, as: Person | undefined): Record<string, string>;
  /** JSON body (fields are mutated one by one, dropped, or joined by strangers). */
  body?(w: World, as: Person | undefined): Record<string, unknown>;
  /** Other well-formed starting points (each case picks one): e.g. the pending payments settle can still change. */
  variants?(w: World): Array<{ params?: Record<string, string>; body?: Record<string, unknown> }>;
  /** The route takes a multipart upload. */
  upload?: boolean;
  /** Internal route: the well-formed request carries X-Internal-Key. */
  internal?: boolean;
}

/** Who may call a route is said once, in its declaration (src/lib/route-declaration.ts); the table only scripts requests. */
export interface RouteEntry {
  method: string;
  path: string;
  scenarios: Scenario[];
  fuzz: FuzzSpec;
}

/** Reset mails A has received (POST /api/auth/forgot-password sends them after answering). */
const resetMailsTo = (w: World) => w.t.smtp.inbox.filter((mail) => mail.to === w.a.user.email && /Reset your Tukio password/.test(mail.subject)).length;
let resetMailsBefore = 0;

// ---- expectations -------------------------------------------------------------------------
const all = (status: number | readonly number[]): Expectation => ({ visitor: status, user: status, owner: status, other: status, admin: status });
const signedIn = (status: number | readonly number[]): Expectation => ({ ...all(status), visitor: 401 });
const selfOrAdmin = (status: number): Expectation => ({ visitor: 401, user: 403, owner: status, other: 403, admin: status });
const selfOnly = (status: number): Expectation => ({ visitor: 401, user: 403, owner: status, other: 403, admin: 403 });
const adminOnly = (status: number): Expectation => ({ visitor: 401, user: 403, owner: 403, other: 403, admin: status });
/**
 * Payout destinations: organisers and admins. A owns events; whether B and C do depends on the cells run before
 * (some create events as them), so they may pass or be refused as non-organisers (payout-accounts.test.ts pins that).
 */
const payoutOrganisers = (status: number): Expectation => ({ visitor: 401, user: [status, 403], owner: status, other: [status, 403], admin: status });
let payoutPhones = 0;
const payoutPhone = () => `2547${String(40_000_000 + payoutPhones++).slice(-8)}`;
/** A's pending event: strangers are told it does not exist. */
const pendingOwnerOrAdmin = (status: number): Expectation => ({ visitor: 401, user: 404, owner: status, other: 404, admin: status });

/**
 * The matrix row a route's declaration implies: who passes the gate gets `ok`, the rest the gate's
 * 401/403. In the matrix's world A (the owner) owns the resources and the paths name A.
 */
export function expectedRow(route: Pick<DeclaredRoute, 'access' | 'allowAdmin'>, ok: number): Expectation {
  switch (route.access) {
    case 'public':
    case 'optional':
      return all(ok);
    case 'user':
      return signedIn(ok);
    case 'admin':
      return adminOnly(ok);
    case 'self':
      return route.allowAdmin ? selfOrAdmin(ok) : selfOnly(ok);
    case 'owner':
      return selfOrAdmin(ok);
    case 'internal':
      // The actors carry user tokens, never the internal key.
      return all(401);
  }
}

/**
 * What A's team member gets on an organiser-scoped route (its declaration's `team`), from the one role table
 * (src/lib/team-access.ts): a role that allows the permission acts as A does (A's expected answer), any
 * other role is refused at the gate with 403. Routes without `team` are not tried as team members.
 */
export function teamExpectation(route: Pick<DeclaredRoute, 'team'>, expectation: Expectation, actor: TeamActor): number | readonly number[] {
  if (!route.team) throw new Error('not an organiser-scoped route');
  return roleAllows(TEAM_ACTORS[actor], route.team.permission) ? expectation.owner : 403;
}

/** Where an explicit expectation contradicts the declaration's gate (who is refused before anything runs). */
export function gateContradictions(route: Pick<DeclaredRoute, 'access'>, expectation: Expectation): string[] {
  const problems: string[] = [];
  const refusedAs = (actor: BaseActor, status: number) => {
    const given = expectation[actor];
    if (!(typeof given === 'number' ? [given] : given).every((value) => value === status)) problems.push(`${actor} should get ${status} from the gate, the table expects ${JSON.stringify(given)}`);
  };
  const passes = (actor: BaseActor) => {
    const given = expectation[actor];
    if ((typeof given === 'number' ? [given] : given).includes(401)) problems.push(`${actor} passes the gate of a ${route.access} route, the table expects 401`);
  };
  switch (route.access) {
    case 'public':
    case 'optional':
      passes('visitor');
      break;
    case 'admin':
      refusedAs('visitor', 401);
      for (const actor of ['user', 'owner', 'other'] as const) refusedAs(actor, 403);
      break;
    case 'internal':
      break;
    default:
      refusedAs('visitor', 401);
  }
  return problems;
}

// ---- helpers --------------------------------------------------------------------------------
/** The actor's own user id (A's for a visitor, who has none). */
const me = (tools: WorldTools, actor: Actor) => (tools.w.personOf(actor) ?? tools.w.a).user._id;
const get = (path: string): RawRequest => ({ method: 'GET', path });
const json = (method: string, path: string, body?: unknown) => jsonRequest(method, path, { body });
const internalKey = (tools: WorldTools) => ({ 'x-internal-key': tools.internalKey });
const qs = (query: Record<string, string>) => {
  const text = new URLSearchParams(query).toString();
  return text ? `?${text}` : '';
};

const noEmailInContacts = (res: RawResponse) =>
  Array.isArray(res.body) && res.body.some((row: Record<string, unknown>) => Object.keys(row).some((key) => !['_id', 'username', 'avatarImage'].includes(key)))
    ? 'contacts carry more than _id, username, avatarImage'
    : undefined;

const createdBy = (res: RawResponse, tools: WorldTools, actor: Actor) =>
  res.status < 300 && res.body?.user !== me(tools, actor) ? `event created for ${String(res.body?.user)}, not the caller` : undefined;

const avatarSvg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="teal"/></svg>').toString('base64');

const unique = () => Math.random().toString(36).slice(2, 10);

/** A fresh free ticket of A's (on a fresh event of A's), for cells that void it. */
async function aFreshTicket(tools: WorldTools): Promise<string> {
  const eventId = await tools.fresh.event();
  const registered = await tools.call(tools.w.a, 'POST', `/api/events/register/${eventId}`, { tickets: 1 });
  if (registered.status !== 200) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  const mine = (await tools.call(tools.w.a, 'GET', '/api/tickets/mine')).body as Array<{ _id: string; event: { _id: string } }>;
  return mine.find((ticket) => ticket.event._id === eventId)!._id;
}
/** Only A may act on A's ticket; to anyone else it does not exist. */
const aTicketOnly = (status: number): Expectation => ({ visitor: 401, user: 404, owner: status, other: 404, admin: 404 });

/** A fresh event of A's turned into a series: the id of its second date. */
async function aSeriesDate(tools: WorldTools): Promise<{ eventId: string; dateId: string }> {
  const eventId = await tools.fresh.event();
  const res = await tools.call(tools.w.a, 'POST', `/api/events/${eventId}/dates`, { startsAt: dayFromNow(40), capacity: 20 });
  if (res.status !== 201) throw new Error(`add date failed: ${res.status} ${res.text}`);
  return { eventId, dateId: (res.body as { _id: string })._id };
}

/** A's paid event with an order, cancelled by A. */
async function cancelledPaidEvent(tools: WorldTools): Promise<string> {
  const eventId = await tools.fresh.paidEventWithOrder();
  const res = await tools.call(tools.w.a, 'POST', `/api/events/${eventId}/cancel`, cancelReason);
  if (res.status !== 200) throw new Error(`cancel failed: ${res.status} ${res.text}`);
  return eventId;
}

/** A fresh published event of A's whose new description (A's edit) waits for review. */
async function eventWithPendingChange(tools: WorldTools): Promise<string> {
  const eventId = await tools.fresh.event();
  const res = await tools.call(tools.w.a, 'PUT', `/api/events/${eventId}`, { description: `Proposed ${unique()}` });
  if (res.status !== 200 || !res.body?.pendingChange) throw new Error(`proposing a change failed: ${res.status} ${res.text}`);
  return eventId;
}

/** A failed refund of one shilling of A's payment, written straight to the ledger (as if M-Pesa refused it every time). */
async function failedRefund(tools: WorldTools): Promise<string> {
  const [payment] = await tools.w.t.db.select().from(payments).where(eq(payments.checkoutRequestId, tools.w.checkoutRequestId));
  const id = newId();
  await tools.w.t.db.insert(refunds).values({
    id,
    orderId: payment!.orderId,
    paymentId: payment!.id,
    userId: payment!.userId,
    eventId: payment!.eventId,
    amount: 1,
    phone: payment!.phone,
    reason: 'admin',
    method: 'b2c',
    status: 'failed',
    attempts: 5,
  });
  return id;
}

const cancelReason = { reason: 'The venue is closed for repairs.' };

export const routeTable: RouteEntry[] = [
  // ---- health ----
  { method: 'GET', path: '/api/health', scenarios: [{ name: 'health', request: () => get('/api/health'), ok: 200 }], fuzz: { as: 'visitor' } },

  // ---- API documentation ----
  { method: 'GET', path: '/api/docs', scenarios: [{ name: 'the page', request: () => get('/api/docs'), ok: 200 }], fuzz: { as: 'visitor' } },
  { method: 'GET', path: '/api/docs/openapi.json', scenarios: [{ name: 'the document', request: () => get('/api/docs/openapi.json'), ok: 200 }], fuzz: { as: 'visitor' } },

  // ---- accounts ----
  {
    method: 'POST',
    path: '/api/auth/register',
    scenarios: [
      {
        name: 'new account',
        request: () => {
          const name = `reg${unique()}`;
          return json('POST', '/api/auth/register', { username: name, email: `${name}@example.com`, password: 'long-enough' });
        },
        ok: 200,
        check: (res) => (res.body?.status === true ? undefined : `register answered ${res.text}`),
      },
      {
        name: 'new account claiming the admin role',
        request: () => {
          const name = `reg${unique()}`;
          return json('POST', '/api/auth/register', { username: name, email: `${name}@example.com`, password: 'long-enough', role: 'admin', isAdmin: true });
        },
        ok: 200,
        async check(res, tools) {
          const rows = await tools.w.t.db.select({ role: users.role }).from(users).where(eq(users.role, 'admin'));
          return rows.length === 1 ? undefined : `${rows.length} admins after a registration asked for the role`;
        },
      },
      {
        name: "A's username again",
        request: (tools) => json('POST', '/api/auth/register', { username: tools.w.a.user.username, email: `x${unique()}@example.com`, password: 'long-enough' }),
        ok: 200,
        readOnlyFor: ['visitor', 'user', 'owner', 'other', 'admin'],
        check: (res) => (res.body?.status === false ? undefined : 'a taken username was accepted'),
      },
    ],
    fuzz: { as: 'visitor', body: () => ({ username: `fz${unique()}`, email: `fz${unique()}@example.com`, password: 'long-enough' }) },
  },
  {
    method: 'GET',
    path: '/api/auth/verify-email/:token',
    scenarios: [{ name: 'unknown link', request: () => get('/api/auth/verify-email/not-a-real-token-123'), ok: 400 }],
    fuzz: { as: 'visitor', params: () => ({ token: 'abcdefghijklmnopqrstuvwxyz012345' }) },
  },
  {
    method: 'POST',
    path: '/api/auth/resend-verification',
    scenarios: [{ name: "A's username", request: (tools) => json('POST', '/api/auth/resend-verification', { username: tools.w.a.user.username }), ok: 200, readOnlyFor: ['visitor', 'user', 'owner', 'other', 'admin'] }],
    fuzz: { as: 'visitor', body: (w) => ({ username: w.c.user.username }) },
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    scenarios: [
      {
        name: "A's credentials",
        request: (tools) => json('POST', '/api/auth/login', { username: tools.w.a.user.username, password: tools.w.a.password }),
        ok: 200,
        reveals: ['aEmail'],
        readOnlyFor: ['visitor', 'user', 'owner', 'other', 'admin'],
        check: (res, tools) => (res.body?.status === true && res.body.user?._id === tools.w.a.user._id ? undefined : `login answered ${res.text}`),
      },
      {
        name: "A's username, wrong password",
        request: (tools) => json('POST', '/api/auth/login', { username: tools.w.a.user.username, password: 'wrong-password' }),
        ok: 200,
        readOnlyFor: ['visitor', 'user', 'owner', 'other', 'admin'],
        check: (res) => (res.body?.status === false && !res.body.token ? undefined : 'a wrong password logged in'),
      },
    ],
    fuzz: { as: 'visitor', body: (w) => ({ username: w.c.user.username, password: 'wrong-password' }) },
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    scenarios: [
      {
        name: 'own session',
        request: () => json('POST', '/api/auth/logout', {}),
        ok: 200,
        // Logout revokes every token of the caller: log in again for the next cells.
        async after(tools, actor) {
          const person = tools.w.personOf(actor);
          if (!person) return;
          const res = await tools.call(undefined, 'POST', '/api/auth/login', { username: person.user.username, password: person.password });
          if (!res.body?.token) throw new Error(`re-login of ${actor} failed: ${res.text}`);
          person.token = res.body.token;
        },
      },
    ],
    fuzz: { as: 'visitor' },
  },
  {
    method: 'POST',
    path: '/api/auth/forgot-password',
    scenarios: [
      {
        name: "A's email",
        request: (tools) => {
          resetMailsBefore = resetMailsTo(tools.w);
          return json('POST', '/api/auth/forgot-password', { email: tools.w.a.user.email });
        },
        ok: 200,
        // The token and mail are made after the answer (its timing must not tell who has an account):
        // wait for them, so they do not show up as a change made by the next cell.
        after: (tools) => vi.waitFor(() => expect(resetMailsTo(tools.w)).toBeGreaterThan(resetMailsBefore), { timeout: 10_000, interval: 20 }),
      },
    ],
    fuzz: { as: 'visitor', body: () => ({ email: `nobody${unique()}@example.com` }) },
  },
  {
    method: 'POST',
    path: '/api/auth/reset-password/:token',
    scenarios: [
      {
        name: 'unknown link',
        request: () => json('POST', '/api/auth/reset-password/not-a-real-token-123', { password: 'new-password' }),
        ok: 200,
        readOnlyFor: ['visitor', 'user', 'owner', 'other', 'admin'],
        check: (res) => (res.body?.status === false ? undefined : 'an unknown reset link worked'),
      },
    ],
    fuzz: { as: 'visitor', params: () => ({ token: 'abcdefghijklmnopqrstuvwxyz012345' }), body: () => ({ password: 'new-password' }) },
  },
  {
    method: 'GET',
    path: '/api/auth/user/:id',
    scenarios: [{ name: "A's profile", request: (tools) => get(`/api/auth/user/${tools.w.a.user._id}`), expect: selfOrAdmin(200) }],
    fuzz: { as: 'a', params: (w) => ({ id: w.a.user._id }) },
  },
  {
    method: 'PUT',
    path: '/api/auth/user/:id',
    scenarios: [
      {
        name: "edit A's profile",
        request: (tools) => json('PUT', `/api/auth/user/${tools.w.a.user._id}`, { username: tools.w.a.user.username }),
        expect: selfOrAdmin(200),
      },
      {
        name: "promote A to admin",
        request: (tools) => json('PUT', `/api/auth/user/${tools.w.a.user._id}`, { username: tools.w.a.user.username, role: 'admin' }),
        expect: selfOrAdmin(200),
        check: (res) => (res.body?.user?.role === 'user' ? undefined : `role became ${String(res.body?.user?.role)}`),
      },
      {
        name: "take over A's email",
        request: (tools) => json('PUT', `/api/auth/user/${tools.w.a.user._id}`, { email: `taken${unique()}@example.com` }),
        expect: { visitor: 401, user: 403, owner: [200], other: 403, admin: [200] },
        // The owner and admin cells change A's address; put it back so A can still log in.
        async after(tools, actor) {
          if (actor !== 'owner' && actor !== 'admin') return;
          await tools.w.t.db.update(users).set({ email: tools.w.a.user.email, emailVerifiedAt: new Date() }).where(eq(users.id, tools.w.a.user._id));
        },
      },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.b.user._id }), body: (w) => ({ username: w.b.user.username }) },
  },
  {
    method: 'PUT',
    path: '/api/auth/user/:id/language',
    scenarios: [
      {
        name: "A's language",
        request: (tools) => json('PUT', `/api/auth/user/${tools.w.a.user._id}/language`, { language: 'en' }),
        expect: selfOnly(200),
        check: (res) => (res.body?.user?.language === 'en' ? undefined : `language became ${String(res.body?.user?.language)}`),
      },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.b.user._id }), body: () => ({ language: 'sw' }) },
  },
  {
    method: 'GET',
    path: '/api/auth/user/:id/sms-promotions',
    scenarios: [{ name: "A's promotional SMS opt-in", request: (tools) => get(`/api/auth/user/${tools.w.a.user._id}/sms-promotions`), ok: 200 }],
    fuzz: { as: 'a', params: (w) => ({ id: w.a.user._id }) },
  },
  {
    method: 'PUT',
    path: '/api/auth/user/:id/sms-promotions',
    scenarios: [{ name: "A's promotional SMS opt-out", request: (tools) => json('PUT', `/api/auth/user/${tools.w.a.user._id}/sms-promotions`, { smsPromotions: false }), ok: 200 }],
    fuzz: { as: 'b', params: (w) => ({ id: w.b.user._id }), body: () => ({ smsPromotions: false }) },
  },
  {
    method: 'POST',
    path: '/api/auth/setavatar/:id',
    scenarios: [{ name: "A's avatar", request: (tools) => json('POST', `/api/auth/setavatar/${tools.w.a.user._id}`, { image: avatarSvg }), expect: selfOnly(200) }],
    fuzz: { as: 'b', params: (w) => ({ id: w.b.user._id }), body: () => ({ image: avatarSvg }) },
  },
  {
    method: 'GET',
    path: '/api/auth/allusers/:id',
    scenarios: [{ name: "A's contacts", request: (tools) => get(`/api/auth/allusers/${tools.w.a.user._id}`), expect: selfOnly(200), check: noEmailInContacts }],
    fuzz: { as: 'a', params: (w) => ({ id: w.a.user._id }) },
  },
  {
    method: 'GET',
    path: '/api/auth/users/search',
    scenarios: [
      {
        name: 'usernames by prefix',
        request: (tools) => get(`/api/auth/users/search${qs({ q: tools.w.b.user.username.slice(0, 2) })}`),
        ok: 200,
        check: (res) => noEmailInContacts({ ...res, body: res.body?.users }),
      },
    ],
    fuzz: { as: 'a', query: (w) => ({ q: w.b.user.username.slice(0, 2), page: '1' }) },
  },
  {
    method: 'POST',
    path: '/api/auth/sendMessage',
    scenarios: [
      {
        name: 'chat as A',
        request: (tools) => json('POST', '/api/auth/sendMessage', { from: tools.w.a.user._id, to: tools.w.b.user._id, message: 'hi from A' }),
        expect: selfOnly(200),
      },
      {
        name: 'chat as oneself to A',
        request: (tools, actor) => json('POST', '/api/auth/sendMessage', { from: me(tools, actor), to: actor === 'owner' ? tools.w.b.user._id : tools.w.a.user._id, message: 'hello' }),
        ok: 200,
      },
      {
        name: 'contact form',
        request: () => json('POST', '/api/auth/sendMessage', { name: 'Wanjiku', email: 'wanjiku@example.com', subject: 'Hello', message: 'How do I list an event?' }),
        expect: all(200),
        beforeGate: 'the contact form needs no account and is answered by its own middleware on the send paths',
      },
    ],
    fuzz: { as: 'a', body: (w) => ({ from: w.a.user._id, to: w.b.user._id, message: 'hello there' }) },
  },

  // ---- chat ----
  {
    method: 'POST',
    path: '/api/messages/getmsg',
    scenarios: [
      { name: "A's conversation with B", request: (tools) => json('POST', '/api/messages/getmsg', { from: tools.w.a.user._id, to: tools.w.b.user._id }), expect: selfOnly(200), readOnlyFor: ['owner'] },
      {
        name: "one's own conversation with A",
        request: (tools, actor) => json('POST', '/api/messages/getmsg', { from: me(tools, actor), to: tools.w.a.user._id }),
        expect: signedIn(200),
        readOnlyFor: ['user', 'owner', 'other', 'admin'],
      },
    ],
    fuzz: { as: 'a', body: (w) => ({ from: w.a.user._id, to: w.b.user._id }) },
  },
  // ---- API keys and webhooks (docs/decisions/webhooks.md) ----
  {
    method: 'GET',
    path: '/api/api-keys',
    scenarios: [{ name: "one's own API keys", request: () => get('/api/api-keys'), expect: signedIn(200) }],
    fuzz: { as: 'a' },
  },
  {
    method: 'POST',
    path: '/api/api-keys',
    scenarios: [{ name: 'a new read-only key', request: () => json('POST', '/api/api-keys', { name: 'Matrix key', scopes: ['events:read'] }), expect: signedIn(201) }],
    fuzz: { as: 'a', body: () => ({ name: 'Fuzz key', scopes: ['events:read'] }) },
  },
  {
    method: 'DELETE',
    path: '/api/api-keys/:id',
    scenarios: [{ name: 'a key that is not one of yours', request: () => jsonRequest('DELETE', `/api/api-keys/${newId()}`), expect: signedIn(404) }],
    fuzz: { as: 'a', params: () => ({ id: newId() }) },
  },
  {
    method: 'GET',
    path: '/api/webhooks',
    scenarios: [{ name: "one's own webhook endpoints", request: () => get('/api/webhooks'), expect: signedIn(200) }],
    fuzz: { as: 'a' },
  },
  {
    method: 'POST',
    path: '/api/webhooks',
    scenarios: [
      {
        // For a fact no other cell causes, and removed after the cell: deliveries sent in the background would show as changes in later cells.
        name: 'a public https endpoint',
        request: () => json('POST', '/api/webhooks', { url: 'https://example.com/tukio-hooks', events: ['payout.paid'] }),
        expect: signedIn(201),
        after: async (tools, actor) => {
          const person = tools.w.personOf(actor);
          const listed = await tools.call(person, 'GET', '/api/webhooks');
          for (const endpoint of (listed.body as { endpoints?: Array<{ _id: string }> } | undefined)?.endpoints ?? []) await tools.call(person, 'DELETE', `/api/webhooks/${endpoint._id}`);
        },
      },
    ],
    fuzz: { as: 'a', body: () => ({ url: 'https://example.com/fuzz-hooks', events: ['payout.paid'] }) },
  },
  {
    method: 'DELETE',
    path: '/api/webhooks/:id',
    scenarios: [{ name: 'an endpoint that is not one of yours', request: () => jsonRequest('DELETE', `/api/webhooks/${newId()}`), expect: signedIn(404) }],
    fuzz: { as: 'a', params: () => ({ id: newId() }) },
  },
  {
    method: 'GET',
    path: '/api/webhooks/deliveries',
    scenarios: [{ name: "one's own delivery log", request: () => get('/api/webhooks/deliveries'), expect: signedIn(200) }],
    fuzz: { as: 'a' },
  },
  {
    method: 'POST',
    path: '/api/webhooks/deliveries/:id/send-again',
    scenarios: [{ name: 'a delivery that is not one of yours', request: () => json('POST', `/api/webhooks/deliveries/${newId()}/send-again`, {}), expect: signedIn(404) }],
    fuzz: { as: 'a', params: () => ({ id: newId() }) },
  },
  // /api/v1 takes API keys only: the actors' session tokens are refused (api-keys.test.ts covers the keys).
  {
    method: 'GET',
    path: '/api/v1/events',
    scenarios: [{ name: 'a session token instead of a key', request: () => get('/api/v1/events'), expect: all(401) }],
    fuzz: { as: 'a' },
  },
  {
    method: 'GET',
    path: '/api/v1/events/:id/orders',
    scenarios: [{ name: 'a session token instead of a key', request: (tools) => get(`/api/v1/events/${tools.w.events.paid}/orders`), expect: all(401) }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid }) },
  },
  {
    method: 'GET',
    path: '/api/v1/events/:id/attendees',
    scenarios: [{ name: 'a session token instead of a key', request: (tools) => get(`/api/v1/events/${tools.w.events.paid}/attendees`), expect: all(401) }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid }) },
  },
  {
    method: 'POST',
    path: '/api/v1/events/:id/check-ins',
    scenarios: [{ name: 'a session token instead of a key', request: (tools) => json('POST', `/api/v1/events/${tools.w.events.paid}/check-ins`, { code: 'TK1.a.b' }), expect: all(401) }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid }), body: () => ({ code: 'TK1.a.b' }) },
  },
  // ---- your data (docs/decisions/data-rights.md) ----
  {
    method: 'GET',
    path: '/api/me/data-export',
    scenarios: [{ name: "one's own export status", request: () => get('/api/me/data-export'), expect: signedIn(200) }],
    fuzz: { as: 'a' },
  },
  {
    method: 'POST',
    path: '/api/me/data-export',
    // Once a day per account: an actor asking again (another scenario, the fuzz run) gets 429.
    scenarios: [{ name: 'ask for a copy of one’s data', request: () => json('POST', '/api/me/data-export', {}), expect: signedIn([202, 429]) }],
    fuzz: { as: 'b' },
  },
  {
    method: 'GET',
    path: '/api/me/data-export/:token',
    scenarios: [{ name: 'a made-up link', request: () => get(`/api/me/data-export/${'A'.repeat(43)}`), expect: signedIn(410) }],
    fuzz: { as: 'a', params: () => ({ token: 'B'.repeat(43) }) },
  },
  // ---- retention and the privacy notice (docs/decisions/data-rights.md) ----
  { method: 'GET', path: '/api/privacy', scenarios: [{ name: 'the notice’s numbers', request: () => get('/api/privacy'), ok: 200 }], fuzz: { as: 'visitor' } },
  {
    method: 'POST',
    path: '/api/admin/events/:id/shred',
    // A fresh event has not happened yet: the admin is refused with 409 and nothing is erased.
    scenarios: [{ name: 'a fresh (future) event', request: async (tools) => json('POST', `/api/admin/events/${await tools.fresh.event()}/shred`, { reason: 'Authorization matrix check.' }), ok: 409 }],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.approved }), body: () => ({ reason: 'Fuzz run.' }) },
  },
  {
    method: 'GET',
    path: '/api/me/account-deletion',
    scenarios: [{ name: "one's own deletion request", request: () => get('/api/me/account-deletion'), expect: signedIn(200) }],
    fuzz: { as: 'a' },
  },
  {
    method: 'POST',
    path: '/api/me/account-deletion',
    // A wrong password: nobody's account is deleted by the matrix (the flow is in account-deletion.test.ts).
    scenarios: [{ name: 'a wrong password', request: () => json('POST', '/api/me/account-deletion', { password: 'not-the-password' }), expect: signedIn(403), readOnlyFor: ['user', 'owner', 'other', 'admin'] }],
    fuzz: { as: 'b', body: () => ({ password: 'not-the-password' }) },
  },
  {
    method: 'POST',
    path: '/api/account-deletion/confirm',
    scenarios: [{ name: 'a made-up link', request: () => json('POST', '/api/account-deletion/confirm', { token: 'A'.repeat(43) }), expect: all(410), readOnlyFor: ['visitor', 'user', 'owner', 'other', 'admin'] }],
    fuzz: { as: 'visitor', body: () => ({ token: 'B'.repeat(43) }) },
  },
  {
    method: 'POST',
    path: '/api/account-deletion/undo',
    scenarios: [{ name: 'a made-up link', request: () => json('POST', '/api/account-deletion/undo', { token: 'A'.repeat(43) }), expect: all(410), readOnlyFor: ['visitor', 'user', 'owner', 'other', 'admin'] }],
    fuzz: { as: 'visitor', body: () => ({ token: 'B'.repeat(43) }) },
  },
  {
    method: 'GET',
    path: '/api/messages/conversation/:contactId',
    scenarios: [{ name: "one's own conversation with A", request: (tools) => get(`/api/messages/conversation/${tools.w.a.user._id}`), expect: signedIn(200) }],
    fuzz: { as: 'b', params: (w) => ({ contactId: w.a.user._id }), query: () => ({ limit: '10' }) },
  },
  {
    method: 'GET',
    path: '/api/messages/contacts',
    scenarios: [{ name: "one's own contacts", request: () => get('/api/messages/contacts'), expect: signedIn(200), check: (res) => noEmailInContacts({ ...res, body: res.body?.items }) }],
    fuzz: { as: 'a', query: () => ({ limit: '10' }) },
  },
  {
    method: 'GET',
    path: '/api/messages/contacts/:contactId',
    scenarios: [
      // Only someone who wrote with B gets B's card (A); to anyone else an id is no way to a username.
      {
        name: "B's card",
        request: (tools) => get(`/api/messages/contacts/${tools.w.b.user._id}`),
        expect: { visitor: 401, user: 404, owner: 200, other: 404, admin: 404 },
        check: (res) => (res.status === 200 ? noEmailInContacts({ ...res, body: [res.body] }) : undefined),
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ contactId: w.b.user._id }) },
  },
  {
    method: 'POST',
    path: '/api/messages/addmsg',
    scenarios: [
      { name: 'as A', request: (tools) => json('POST', '/api/messages/addmsg', { from: tools.w.a.user._id, to: tools.w.b.user._id, message: 'hi' }), expect: selfOnly(200) },
    ],
    fuzz: { as: 'b', body: (w) => ({ from: w.b.user._id, to: w.a.user._id, message: 'hello there' }) },
  },
  {
    method: 'POST',
    path: '/api/messages/read/:contactId',
    scenarios: [
      {
        name: "B's messages (read receipts are the caller's own)",
        request: (tools) => json('POST', `/api/messages/read/${tools.w.b.user._id}`, {}),
        ok: 200,
        readOnlyFor: ['user', 'other', 'admin'],
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ contactId: w.b.user._id }) },
  },
  { method: 'GET', path: '/api/messages/unread', scenarios: [{ name: 'own counts', request: () => get('/api/messages/unread'), ok: 200 }], fuzz: { as: 'a' } },
  { method: 'GET', path: '/api/messages/blocks', scenarios: [{ name: 'own blocks', request: () => get('/api/messages/blocks'), ok: 200 }], fuzz: { as: 'a' } },
  {
    method: 'PUT',
    path: '/api/messages/blocks/:userId',
    scenarios: [
      {
        name: 'block A',
        request: (tools) => json('PUT', `/api/messages/blocks/${tools.w.a.user._id}`, {}),
        // A blocking A is refused; everyone else blocks A, and unblocks after, so A's chat cells still pass.
        expect: { ...signedIn(200), owner: 400 },
        after: async (tools, actor) => {
          const person = tools.w.personOf(actor);
          if (person) await tools.call(person, 'DELETE', `/api/messages/blocks/${tools.w.a.user._id}`);
        },
      },
    ],
    // The admin and C never chat in the matrix's world.
    fuzz: { as: 'admin', params: (w) => ({ userId: w.c.user._id }) },
  },
  {
    method: 'DELETE',
    path: '/api/messages/blocks/:userId',
    scenarios: [{ name: 'unblock A', request: (tools) => ({ method: 'DELETE', path: `/api/messages/blocks/${tools.w.a.user._id}` }), ok: 200 }],
    fuzz: { as: 'admin', params: (w) => ({ userId: w.c.user._id }) },
  },

  // ---- moderation ----
  {
    method: 'POST',
    path: '/api/moderation/reports',
    scenarios: [
      {
        name: "A's fresh comment",
        request: async (tools) => json('POST', '/api/moderation/reports', { kind: 'comment', id: await tools.fresh.comment(), reason: 'spam' }),
        // A cannot report A's own comment.
        expect: { ...signedIn(201), owner: 400 },
      },
    ],
    fuzz: { as: 'b', body: (w) => ({ kind: 'comment', id: w.commentId, reason: 'other', details: 'Looks like an advert.' }) },
  },
  { method: 'GET', path: '/api/moderation/reports/mine', scenarios: [{ name: 'own reports', request: () => get('/api/moderation/reports/mine'), ok: 200 }], fuzz: { as: 'b' } },
  { method: 'GET', path: '/api/moderation/queue', scenarios: [{ name: 'the queue', request: () => get('/api/moderation/queue'), ok: 200 }], fuzz: { as: 'admin' } },
  {
    method: 'POST',
    path: '/api/moderation/items/:kind/:id/actions',
    scenarios: [
      {
        name: "dismiss on A's fresh comment",
        request: async (tools) => json('POST', `/api/moderation/items/comment/${await tools.fresh.comment()}/actions`, { action: 'dismiss', reason: 'Nothing wrong here.' }),
        ok: 200,
      },
    ],
    // A warning to C: nothing the other cells rely on changes.
    fuzz: { as: 'admin', params: (w) => ({ kind: 'user', id: w.c.user._id }), body: () => ({ action: 'warn', reason: 'Please keep it civil.' }) },
  },
  { method: 'GET', path: '/api/moderation/log', scenarios: [{ name: 'the log', request: () => get('/api/moderation/log'), ok: 200 }], fuzz: { as: 'admin' } },
  { method: 'GET', path: '/api/moderation/queue/paged', scenarios: [{ name: 'the queue, a page', request: () => get('/api/moderation/queue/paged?limit=5'), ok: 200 }], fuzz: { as: 'admin' } },
  { method: 'GET', path: '/api/moderation/log/paged', scenarios: [{ name: 'the log, a page', request: () => get('/api/moderation/log/paged?limit=5'), ok: 200 }], fuzz: { as: 'admin' } },

  // ---- comments ----
  {
    method: 'GET',
    path: '/api/comments/event/:eventId',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/comments/event/${tools.w.events.approved}`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/comments/event/${tools.w.events.pending}`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ eventId: w.events.approved }) },
  },
  {
    method: 'GET',
    path: '/api/comments/event/:eventId/paged',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/comments/event/${tools.w.events.approved}/paged`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/comments/event/${tools.w.events.pending}/paged`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ eventId: w.events.approved }), query: () => ({ limit: '5' }) },
  },
  {
    method: 'POST',
    path: '/api/comments/add',
    scenarios: [
      { name: 'as oneself', request: (tools) => json('POST', '/api/comments/add', { content: 'Nice!', eventId: tools.w.events.approved }), ok: 201 },
      { name: 'as A', request: (tools) => json('POST', '/api/comments/add', { content: 'Nice!', eventId: tools.w.events.approved, userId: tools.w.a.user._id }), expect: selfOnly(201) },
      { name: "on A's pending event", request: (tools) => json('POST', '/api/comments/add', { content: 'Nice!', eventId: tools.w.events.pending }), expect: pendingOwnerOrAdmin(201) },
    ],
    fuzz: { as: 'a', body: (w) => ({ content: 'Nice event', eventId: w.events.approved, userId: w.a.user._id }) },
  },
  ...(['/api/comments/add/:commentId', '/api/comments/:commentId'] as const).map(
    (path): RouteEntry => ({
      method: 'PUT',
      path,
      scenarios: [
        {
          name: "A's comment",
          request: (tools) => json('PUT', path.replace(':commentId', tools.w.commentId), { text: `edited ${unique()}` }),
          // Admins may delete comments, not rewrite them.
          expect: selfOnly(200),
        },
      ],
      fuzz: { as: 'a', params: (w) => ({ commentId: w.commentId }), body: () => ({ text: 'edited text' }) },
    }),
  ),
  ...(['/api/comments/:commentId/:userId', '/api/comments/:commentId'] as const).map(
    (path): RouteEntry => ({
      method: 'DELETE',
      path,
      scenarios: [
        {
          name: "A's comment, caller's id in the path",
          request: async (tools, actor) => ({ method: 'DELETE', path: path.replace(':commentId', await tools.fresh.comment()).replace(':userId', me(tools, actor)) }),
          ok: 200,
        },
        ...(path.includes(':userId')
          ? [
              {
                name: "A's comment, A's id in the path",
                request: async (tools: WorldTools) => ({ method: 'DELETE', path: path.replace(':commentId', await tools.fresh.comment()).replace(':userId', tools.w.a.user._id) }),
                ok: 200,
              },
            ]
          : []),
      ],
      fuzz: { as: 'b', params: (w) => ({ commentId: w.commentId, userId: w.b.user._id }) },
    }),
  ),

  // ---- reviews ----
  {
    method: 'GET',
    path: '/api/reviews/event/:eventId',
    scenarios: [
      { name: "A's past event", request: (tools) => get(`/api/reviews/event/${tools.w.events.past}`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/reviews/event/${tools.w.events.pending}`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ eventId: w.events.past }) },
  },
  {
    method: 'GET',
    path: '/api/reviews/event/:eventId/paged',
    scenarios: [
      { name: "A's past event", request: (tools) => get(`/api/reviews/event/${tools.w.events.past}/paged`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/reviews/event/${tools.w.events.pending}/paged`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ eventId: w.events.past }), query: () => ({ limit: '5' }) },
  },
  {
    method: 'POST',
    path: '/api/reviews/add',
    scenarios: [
      {
        name: 'as oneself (A and B attended)',
        request: async (tools) => json('POST', '/api/reviews/add', { content: 'Good', rating: 4, eventId: await tools.fresh.pastEventWithAttendees() }),
        expect: { visitor: 401, user: 403, owner: 201, other: 201, admin: 403 },
      },
      {
        name: 'as A',
        request: async (tools) => json('POST', '/api/reviews/add', { content: 'Good', rating: 4, eventId: await tools.fresh.pastEventWithAttendees(), userId: tools.w.a.user._id }),
        expect: selfOnly(201),
      },
    ],
    fuzz: { as: 'b', body: (w) => ({ content: 'Lovely', rating: 5, eventId: w.events.past, userId: w.b.user._id }) },
  },
  {
    method: 'PUT',
    path: '/api/reviews/:id',
    scenarios: [
      { name: "A's review", request: (tools) => json('PUT', `/api/reviews/${tools.w.reviewId}`, { content: `edited ${unique()}`, rating: 3 }), expect: selfOnly(200) },
      {
        name: "A's review with the caller's id in the body",
        request: (tools, actor) => json('PUT', `/api/reviews/${tools.w.reviewId}`, { content: 'edited', rating: 2, userId: me(tools, actor) }),
        expect: selfOnly(200),
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.reviewId }), body: (w) => ({ content: 'Edited review', rating: 4, userId: w.a.user._id }) },
  },
  {
    method: 'POST',
    path: '/api/reviews/:id/reply',
    scenarios: [
      {
        name: "A answers a review of A's event",
        request: async (tools) => json('POST', `/api/reviews/${await tools.fresh.review()}/reply`, { content: 'Thank you for coming!' }),
        // Only the organiser speaks for the event: not even an admin.
        expect: selfOnly(201),
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.reviewId }), body: () => ({ content: 'Thanks for the feedback.' }) },
  },
  {
    method: 'DELETE',
    path: '/api/reviews/:id',
    scenarios: [{ name: "A's review", request: async (tools) => ({ method: 'DELETE', path: `/api/reviews/${await tools.fresh.review()}` }), ok: 200 }],
    fuzz: { as: 'b', params: (w) => ({ id: w.reviewId }) },
  },

  // ---- forums ----
  {
    method: 'GET',
    path: '/api/forums/summary/:eventId',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/forums/summary/${tools.w.events.approved}`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/forums/summary/${tools.w.events.pending}`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ eventId: w.events.approved }) },
  },
  {
    method: 'GET',
    path: '/api/forums/threads/:eventId',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/forums/threads/${tools.w.events.approved}`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/forums/threads/${tools.w.events.pending}`), expect: pendingOwnerOrAdmin(200) },
    ],
    fuzz: { as: 'b', params: (w) => ({ eventId: w.events.approved }) },
  },
  {
    method: 'GET',
    path: '/api/forums/threads/:eventId/paged',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/forums/threads/${tools.w.events.approved}/paged`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/forums/threads/${tools.w.events.pending}/paged`), expect: pendingOwnerOrAdmin(200) },
    ],
    fuzz: { as: 'b', params: (w) => ({ eventId: w.events.approved }), query: () => ({ limit: '5' }) },
  },
  {
    method: 'GET',
    path: '/api/forums/thread/:threadId',
    scenarios: [{ name: "A's thread", request: (tools) => get(`/api/forums/thread/${tools.w.threadId}`), ok: 200 }],
    fuzz: { as: 'b', params: (w) => ({ threadId: w.threadId }) },
  },
  {
    method: 'GET',
    path: '/api/forums/thread/:threadId/posts',
    scenarios: [{ name: "A's thread", request: (tools) => get(`/api/forums/thread/${tools.w.threadId}/posts`), ok: 200 }],
    fuzz: { as: 'b', params: (w) => ({ threadId: w.threadId }), query: () => ({ limit: '5' }) },
  },
  {
    method: 'GET',
    path: '/api/forums/posts/:postId/replies',
    scenarios: [{ name: "A's post", request: (tools) => get(`/api/forums/posts/${tools.w.postId}/replies`), ok: 200 }],
    fuzz: { as: 'b', params: (w) => ({ postId: w.postId }), query: () => ({ limit: '5' }) },
  },
  {
    method: 'POST',
    path: '/api/forums/add-thread',
    scenarios: [
      {
        name: 'as oneself (registered only)',
        request: (tools) => json('POST', '/api/forums/add-thread', { title: 'Tickets?', eventId: tools.w.events.approved }),
        expect: { visitor: 401, user: 403, owner: 201, other: 201, admin: 403 },
      },
      { name: 'as A', request: (tools) => json('POST', '/api/forums/add-thread', { title: 'Tickets?', eventId: tools.w.events.approved, userId: tools.w.a.user._id }), expect: selfOnly(201) },
    ],
    fuzz: { as: 'b', body: (w) => ({ title: 'Question', eventId: w.events.approved, userId: w.b.user._id }) },
  },
  {
    method: 'POST',
    path: '/api/forums/add-post',
    scenarios: [
      {
        name: 'reply as oneself (registered only)',
        request: (tools) => json('POST', '/api/forums/add-post', { content: 'Me too', threadId: tools.w.threadId, parentId: tools.w.postId }),
        expect: { visitor: 401, user: 403, owner: 201, other: 201, admin: 403 },
      },
      {
        name: 'as A',
        request: (tools) => json('POST', '/api/forums/add-post', { content: 'Me too', threadId: tools.w.threadId, parentId: null, userId: tools.w.a.user._id }),
        expect: selfOnly(201),
      },
    ],
    fuzz: { as: 'b', body: (w) => ({ content: 'Reply', threadId: w.threadId, parentId: w.postId, userId: w.b.user._id }) },
  },
  ...(['upvote', 'downvote'] as const).map(
    (direction): RouteEntry => ({
      method: 'PATCH',
      path: `/api/forums/posts/${direction}/:postId/:userId`,
      scenarios: [
        { name: "as oneself on A's post", request: (tools, actor) => json('PATCH', `/api/forums/posts/${direction}/${tools.w.postId}/${me(tools, actor)}`, {}), expect: signedIn(200) },
        { name: "as A on A's post", request: (tools) => json('PATCH', `/api/forums/posts/${direction}/${tools.w.postId}/${tools.w.a.user._id}`, {}), expect: selfOnly(200) },
      ],
      fuzz: { as: 'b', params: (w) => ({ postId: w.postId, userId: w.b.user._id }) },
    }),
  ),
  ...(['/api/forums/posts/:postId/:userId', '/api/forums/posts/:postId'] as const).map(
    (path): RouteEntry => ({
      method: 'DELETE',
      path,
      scenarios: [
        {
          name: "A's post, caller's id in the path",
          request: async (tools, actor) => ({ method: 'DELETE', path: path.replace(':postId', await tools.fresh.post()).replace(':userId', me(tools, actor)) }),
          ok: 200,
        },
        ...(path.includes(':userId')
          ? [
              {
                name: "A's post, A's id in the path",
                request: async (tools: WorldTools) => ({ method: 'DELETE', path: path.replace(':postId', await tools.fresh.post()).replace(':userId', tools.w.a.user._id) }),
                ok: 200,
              },
            ]
          : []),
      ],
      fuzz: { as: 'b', params: (w) => ({ postId: w.postId, userId: w.b.user._id }) },
    }),
  ),

  // ---- internal (payment service only) ----
  {
    method: 'POST',
    path: '/api/internal/payments/orders',
    scenarios: [
      { name: 'without the key', request: (tools) => json('POST', '/api/internal/payments/orders', { eventId: tools.w.events.paid, quantity: 1, phone: '254712345678' }), expect: all(401) },
      {
        name: 'with a wrong key',
        request: (tools) => jsonRequest('POST', '/api/internal/payments/orders', { body: { eventId: tools.w.events.paid, quantity: 1, phone: '254712345678' }, headers: { 'x-internal-key': `${tools.internalKey}x` } }),
        expect: all(401),
      },
    ],
    fuzz: { as: 'a', internal: true, body: (w) => ({ eventId: w.events.paid, quantity: 1, phone: '254712345678' }) },
  },
  {
    method: 'GET',
    path: '/api/internal/payments/whoami',
    scenarios: [
      { name: 'without the key', request: () => get('/api/internal/payments/whoami'), expect: all(401) },
      {
        // With the key the forwarded token decides, and only ever names its own account.
        name: 'with the key, forwarded token',
        request: (tools) => ({ method: 'GET', path: '/api/internal/payments/whoami', headers: internalKey(tools) }),
        expect: signedIn(200),
        check: (res, tools, actor) => (res.status === 200 && res.body?.userId !== me(tools, actor) ? `whoami named ${String(res.body?.userId)}, not the caller` : undefined),
      },
    ],
    fuzz: { as: 'a', internal: true },
  },
  {
    method: 'POST',
    path: '/api/internal/payments/orders/:orderId/abandon',
    scenarios: [{ name: "A's order without the key", request: (tools) => json('POST', `/api/internal/payments/orders/${tools.w.orderId}/abandon`, { reason: 'x' }), expect: all(401) }],
    fuzz: {
      as: 'visitor',
      internal: true,
      params: (w) => ({ orderId: w.orderId }),
      body: () => ({ reason: 'push refused' }),
      variants: (w) => w.pool.openOrders.map((orderId) => ({ params: { orderId } })),
    },
  },
  {
    method: 'POST',
    path: '/api/internal/payments/pushes',
    scenarios: [{ name: 'without the key', request: (tools) => json('POST', '/api/internal/payments/pushes', { orderId: tools.w.orderId, checkoutRequestId: 'ws_CO_forged', merchantRequestId: 'm' }), expect: all(401) }],
    fuzz: {
      as: 'visitor',
      internal: true,
      body: (w) => ({ orderId: w.orderId, checkoutRequestId: `ws_CO_fz${unique()}`, merchantRequestId: 'mr-fuzz' }),
      variants: (w) => w.pool.openOrders.map((orderId) => ({ body: { orderId, checkoutRequestId: `ws_CO_fz${unique()}`, merchantRequestId: 'mr-fuzz' } })),
    },
  },
  {
    method: 'POST',
    path: '/api/internal/payments/pushes/batch',
    scenarios: [
      {
        name: 'without the key',
        request: (tools) => json('POST', '/api/internal/payments/pushes/batch', { items: [{ orderId: tools.w.orderId, checkoutRequestId: 'ws_CO_forged', merchantRequestId: 'm' }] }),
        expect: all(401),
      },
    ],
    fuzz: {
      as: 'visitor',
      internal: true,
      body: (w) => ({ items: [{ orderId: w.orderId, checkoutRequestId: `ws_CO_fz${unique()}`, merchantRequestId: 'mr-fuzz' }] }),
      variants: (w) => (w.pool.openOrders.length === 0 ? [] : [{ body: { items: w.pool.openOrders.map((orderId) => ({ orderId, checkoutRequestId: `ws_CO_fz${unique()}`, merchantRequestId: 'mr-fuzz' })) } }]),
    },
  },
  {
    method: 'POST',
    path: '/api/internal/payments/settle',
    scenarios: [
      {
        name: 'forged success without the key',
        request: (tools) =>
          json('POST', '/api/internal/payments/settle', { checkoutRequestId: tools.w.checkoutRequestId, resultCode: 0, resultDesc: 'ok', amount: 1, mpesaReceiptNumber: 'FORGED1234', phone: '254712345678', source: 'query' }),
        expect: all(401),
      },
    ],
    fuzz: {
      as: 'visitor',
      internal: true,
      body: (w) => ({ checkoutRequestId: w.checkoutRequestId, merchantRequestId: 'mr-x', resultCode: 1032, resultDesc: 'Request cancelled by user', source: 'callback' }),
      variants: (w) =>
        w.pool.pendingCheckouts.flatMap((checkoutRequestId) => [
          { body: { checkoutRequestId, resultCode: 1032, resultDesc: 'Request cancelled by user', source: 'callback' } },
          { body: { checkoutRequestId, resultCode: 0, resultDesc: 'ok', amount: 500, mpesaReceiptNumber: `FZ${unique().toUpperCase()}`, phone: '254712345679', source: 'query' } },
        ]),
    },
  },
  {
    method: 'POST',
    path: '/api/internal/payments/c2b/validate',
    scenarios: [{ name: 'without the key', request: () => json('POST', '/api/internal/payments/c2b/validate', { billRefNumber: 'ABCDEFG', amount: 100 }), expect: all(401) }],
    fuzz: { as: 'visitor', internal: true, body: () => ({ billRefNumber: 'ABCDEFG', amount: 100 }) },
  },
  {
    method: 'POST',
    path: '/api/internal/payments/c2b/confirmations',
    scenarios: [
      {
        name: 'forged Paybill payment without the key',
        request: () => json('POST', '/api/internal/payments/c2b/confirmations', { transId: 'FORGED1234', billRefNumber: 'ABCDEFG', amount: 100, msisdn: '254712345678', shortCode: '174379' }),
        expect: all(401),
      },
    ],
    fuzz: { as: 'visitor', internal: true, body: () => ({ transId: `FZ${unique().toUpperCase()}`.slice(0, 20), billRefNumber: 'FUZZ', amount: 100, msisdn: '2547 ***** 126', shortCode: '174379' }) },
  },
  {
    method: 'POST',
    path: '/api/internal/payments/settle/batch',
    scenarios: [
      {
        name: 'forged success without the key',
        request: (tools) =>
          json('POST', '/api/internal/payments/settle/batch', {
            items: [{ checkoutRequestId: tools.w.checkoutRequestId, resultCode: 0, resultDesc: 'ok', amount: 1, mpesaReceiptNumber: 'FORGED1234', phone: '254712345678', source: 'query' }],
          }),
        expect: all(401),
      },
    ],
    fuzz: {
      as: 'visitor',
      internal: true,
      body: (w) => ({ items: [{ checkoutRequestId: w.checkoutRequestId, merchantRequestId: 'mr-x', resultCode: 1032, resultDesc: 'Request cancelled by user', source: 'callback' }] }),
      variants: (w) =>
        w.pool.pendingCheckouts.length === 0 ? [] : [{ body: { items: w.pool.pendingCheckouts.map((checkoutRequestId) => ({ checkoutRequestId, resultCode: 1032, resultDesc: 'Request cancelled by user', source: 'callback' })) } }],
    },
  },
  {
    method: 'GET',
    path: '/api/internal/payments/pending',
    scenarios: [{ name: 'without the key', request: () => get('/api/internal/payments/pending?olderThan=0'), expect: all(401) }],
    fuzz: { as: 'visitor', internal: true, query: () => ({ olderThan: '30', limit: '100' }) },
  },
  {
    method: 'GET',
    path: '/api/internal/payments/unconfirmed',
    scenarios: [{ name: 'without the key', request: () => get('/api/internal/payments/unconfirmed?olderThan=0'), expect: all(401) }],
    fuzz: { as: 'visitor', internal: true, query: () => ({ olderThan: '30', limit: '100' }) },
  },
  {
    method: 'GET',
    path: '/api/internal/payments/status/:checkoutRequestId',
    scenarios: [
      { name: "A's payment without the key", request: (tools) => get(`/api/internal/payments/status/${tools.w.checkoutRequestId}`), expect: all(401) },
      {
        // With the key (as the payment service calls it) the forwarded token still decides: owner only.
        name: "A's payment with the key, forwarded token",
        request: (tools) => ({ method: 'GET', path: `/api/internal/payments/status/${tools.w.checkoutRequestId}`, headers: internalKey(tools) }),
        expect: { visitor: 401, user: 404, owner: 200, other: 404, admin: 404 },
      },
    ],
    fuzz: { as: 'a', internal: true, params: (w) => ({ checkoutRequestId: w.checkoutRequestId }) },
  },
  {
    method: 'POST',
    path: '/api/internal/payments/guest-orders',
    scenarios: [
      { name: 'without the key', request: (tools) => json('POST', '/api/internal/payments/guest-orders', { eventId: tools.w.events.paid, quantity: 1, phone: '254712345678' }), expect: all(401) },
      {
        name: 'with a wrong key',
        request: (tools) => jsonRequest('POST', '/api/internal/payments/guest-orders', { body: { eventId: tools.w.events.paid, phone: '254712345678' }, headers: { 'x-internal-key': `${tools.internalKey}x` } }),
        expect: all(401),
      },
    ],
    fuzz: { as: 'visitor', internal: true, body: (w) => ({ eventId: w.events.paid, quantity: 1, phone: '254712345678', guestEmail: 'guest@example.com' }) },
  },
  {
    method: 'GET',
    path: '/api/internal/payments/guest-status/:checkoutRequestId',
    scenarios: [
      { name: "A's payment without the key", request: (tools) => get(`/api/internal/payments/guest-status/${tools.w.checkoutRequestId}`), expect: all(401) },
      {
        // With the key, a member's payment is still not answered here: it needs its owner's token.
        name: "A's payment with the key",
        request: (tools) => ({ method: 'GET', path: `/api/internal/payments/guest-status/${tools.w.checkoutRequestId}`, headers: internalKey(tools) }),
        expect: all(404),
      },
    ],
    fuzz: { as: 'visitor', internal: true, params: (w) => ({ checkoutRequestId: w.checkoutRequestId }) },
  },
  {
    method: 'GET',
    path: '/api/guest-tickets/:token',
    scenarios: [
      { name: "a forged link to A's order", request: (tools) => get(`/api/guest-tickets/${tools.w.orderId}.AAAAAAAAAAAAAAAAAAAAAA`), ok: 404 },
      { name: "a member's order id alone", request: (tools) => get(`/api/guest-tickets/${tools.w.orderId}`), ok: 404 },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ token: `${w.orderId}.AAAAAAAAAAAAAAAAAAAAAA` }) },
  },
  {
    method: 'GET',
    path: '/api/guest-tickets/:token/answers',
    // The signed link is the only key: a forged one, or a member's order id, opens nothing for anyone.
    scenarios: [
      { name: "a forged link to A's order's answers", request: (tools) => get(`/api/guest-tickets/${tools.w.orderId}.AAAAAAAAAAAAAAAAAAAAAA/answers`), ok: 404 },
      { name: "a member's order id alone", request: (tools) => get(`/api/guest-tickets/${tools.w.orderId}/answers`), ok: 404 },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ token: `${w.orderId}.AAAAAAAAAAAAAAAAAAAAAA` }) },
  },
  {
    method: 'PUT',
    path: '/api/guest-tickets/:token/answers',
    scenarios: [
      { name: "a forged link to A's order's answers", request: (tools) => json('PUT', `/api/guest-tickets/${tools.w.orderId}.AAAAAAAAAAAAAAAAAAAAAA/answers`, { answers: [] }), ok: 404 },
      { name: "a member's order id alone", request: (tools) => json('PUT', `/api/guest-tickets/${tools.w.orderId}/answers`, { answers: [] }), ok: 404 },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ token: `${w.orderId}.AAAAAAAAAAAAAAAAAAAAAA` }), body: () => ({ answers: [] }) },
  },

  // ---- internal refund ledger (payment service only: its result outbox delivers here) ----
  {
    method: 'POST',
    path: '/api/internal/refunds/result',
    scenarios: [
      {
        name: 'forged success without the key',
        request: () => json('POST', '/api/internal/refunds/result', { originatorConversationId: 'tukio-0123456789abcdef01234567-1', resultCode: '0', resultDesc: 'ok', transactionId: 'FORGED1234', source: 'callback' }),
        expect: all(401),
      },
    ],
    fuzz: {
      as: 'visitor',
      internal: true,
      body: () => ({ originatorConversationId: 'tukio-0123456789abcdef01234567-1', conversationId: 'AG_1', resultCode: '0', resultDesc: 'ok', transactionId: 'SG632NMUAB', amount: 10, source: 'callback' }),
    },
  },
  {
    method: 'POST',
    path: '/api/internal/audit',
    scenarios: [{ name: 'without the key', request: () => json('POST', '/api/internal/audit', { payments: [], refunds: [] }), expect: all(401) }],
    fuzz: {
      as: 'visitor',
      internal: true,
      body: (w) => ({
        payments: [{ receipt: w.receipt, amount: 1000, phone: '254712345678', checkoutRequestId: w.checkoutRequestId }],
        refunds: [{ transactionId: 'SG632NMUAB', originatorConversationId: 'tukio-0123456789abcdef01234567-1', amount: 10, kind: 'b2c' }],
      }),
    },
  },

  // ---- transactions, refunds, tickets ----
  {
    method: 'GET',
    path: '/api/transactions/:userId',
    scenarios: [{ name: "A's transactions", request: (tools) => get(`/api/transactions/${tools.w.a.user._id}`), expect: selfOrAdmin(200) }],
    fuzz: { as: 'a', params: (w) => ({ userId: w.a.user._id }) },
  },
  {
    method: 'GET',
    path: '/api/transactions/:userId/paged',
    scenarios: [{ name: "A's transactions, a page", request: (tools) => get(`/api/transactions/${tools.w.a.user._id}/paged`), expect: selfOrAdmin(200) }],
    fuzz: { as: 'a', params: (w) => ({ userId: w.a.user._id }) },
  },
  {
    method: 'POST',
    path: '/api/transactions',
    scenarios: [
      {
        name: "A's checkout id",
        request: (tools) => json('POST', '/api/transactions', { transactionData: { checkoutRequestId: tools.w.checkoutRequestId, amount: 1, paymentStatus: 'success' } }),
        expect: selfOnly(200),
        readOnlyFor: ['owner'],
      },
      {
        name: "A's checkout id with A's user id",
        request: (tools) => json('POST', '/api/transactions', { userId: tools.w.a.user._id, transactionData: { checkoutRequestId: tools.w.checkoutRequestId, paymentStatus: 'success' } }),
        expect: selfOnly(200),
        readOnlyFor: ['owner'],
      },
    ],
    fuzz: { as: 'a', body: (w) => ({ userId: w.a.user._id, transactionData: { checkoutRequestId: w.checkoutRequestId, eventId: w.events.paid, amount: 1000, name: 'x', phoneNumber: '254712345678', paymentStatus: 'success' } }) },
  },
  {
    method: 'GET',
    path: '/api/admin/refunds',
    scenarios: [
      { name: 'refund list', request: () => get('/api/admin/refunds'), ok: 200 },
      { name: 'failed refunds', request: () => get('/api/admin/refunds?status=failed'), ok: 200 },
    ],
    fuzz: { as: 'admin', query: () => ({ status: 'due' }) },
  },
  {
    method: 'POST',
    path: '/api/admin/ledger/adjustments',
    scenarios: [
      {
        name: "a correction to the paid event's payable",
        request: (tools) =>
          json('POST', '/api/admin/ledger/adjustments', { debitAccount: 'platform_fees', creditAccount: 'organiser_payable', eventId: tools.w.events.paid, amount: 1, reason: 'Authorization matrix check.' }),
        ok: 201,
      },
      { name: 'no reason', request: (tools) => json('POST', '/api/admin/ledger/adjustments', { debitAccount: 'platform_fees', creditAccount: 'organiser_payable', eventId: tools.w.events.paid, amount: 1 }), ok: 400 },
    ],
    fuzz: { as: 'admin', body: (w) => ({ debitAccount: 'platform_fees', creditAccount: 'organiser_payable', eventId: w.events.paid, amount: 1, reason: 'Fuzz run.' }) },
  },
  {
    method: 'GET',
    path: '/api/admin/fees',
    scenarios: [{ name: 'the platform fee and its history', request: () => get('/api/admin/fees'), ok: 200 }],
    fuzz: { as: 'admin' },
  },
  {
    method: 'PUT',
    path: '/api/admin/fees',
    scenarios: [
      { name: 'no fee (as it is)', request: () => json('PUT', '/api/admin/fees', { percent: 0, fixed: 0, minimum: 0 }), ok: 200 },
      { name: 'a percent over 100', request: () => json('PUT', '/api/admin/fees', { percent: 101, fixed: 0, minimum: 0 }), ok: 400 },
    ],
    fuzz: { as: 'admin', body: () => ({ percent: 0, fixed: 0, minimum: 0 }) },
  },
  {
    method: 'GET',
    path: '/api/admin/events/:id/fee',
    scenarios: [{ name: "the paid event's fee", request: (tools) => get(`/api/admin/events/${tools.w.events.paid}/fee`), ok: 200 }],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.paid }) },
  },
  {
    method: 'PUT',
    path: '/api/admin/events/:id/fee',
    scenarios: [
      { name: "back to the platform's fee", request: (tools) => json('PUT', `/api/admin/events/${tools.w.events.paid}/fee`, { override: null }), ok: 200 },
      { name: 'a negative fixed fee', request: (tools) => json('PUT', `/api/admin/events/${tools.w.events.paid}/fee`, { override: { percent: 0, fixed: -1, minimum: 0 } }), ok: 400 },
    ],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.paid }), body: () => ({ override: null }) },
  },
  {
    method: 'GET',
    path: '/api/admin/ledger/balances',
    scenarios: [
      { name: 'every account', request: () => get('/api/admin/ledger/balances'), ok: 200 },
      { name: 'the paid event', request: (tools) => get(`/api/admin/ledger/balances?eventId=${tools.w.events.paid}`), ok: 200 },
    ],
    fuzz: { as: 'admin', query: (w) => ({ eventId: w.events.paid }) },
  },
  // ---- payouts ----
  { method: 'GET', path: '/api/payouts', scenarios: [{ name: 'own payouts', request: () => get('/api/payouts'), ok: 200 }], fuzz: { as: 'a' } },
  {
    method: 'GET',
    path: '/api/payouts/organisers/:organiserId',
    scenarios: [{ name: "A's payouts summary", request: (tools) => get(`/api/payouts/organisers/${tools.w.a.user._id}`), ok: 200 }],
    fuzz: { as: 'a', params: (w) => ({ organiserId: w.a.user._id }) },
  },
  {
    method: 'GET',
    path: '/api/payouts/events/:id/statement',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/payouts/events/${tools.w.events.approved}/statement`), ok: 200 },
      { name: "A's cancelled event with an order, as CSV", request: async (tools) => get(`/api/payouts/events/${await cancelledPaidEvent(tools)}/statement?format=csv`), ok: 200 },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), query: () => ({ format: 'json' }) },
  },
  {
    method: 'GET',
    path: '/api/admin/payouts',
    scenarios: [{ name: 'failed payouts', request: () => get('/api/admin/payouts?status=failed'), ok: 200 }],
    fuzz: { as: 'admin', query: () => ({ status: 'failed' }) },
  },
  {
    method: 'POST',
    path: '/api/admin/payouts/:id/retry',
    scenarios: [{ name: 'an unknown payout', request: () => json('POST', '/api/admin/payouts/0123456789abcdef01234567/retry'), ok: 404 }],
    fuzz: { as: 'admin', params: () => ({ id: '0123456789abcdef01234567' }) },
  },
  {
    method: 'GET',
    path: '/api/admin/payout-holds',
    scenarios: [{ name: 'held events', request: () => get('/api/admin/payout-holds'), ok: 200 }],
    fuzz: { as: 'admin' },
  },
  {
    method: 'POST',
    path: '/api/admin/events/:id/payout-hold',
    scenarios: [{ name: 'a fresh event', request: async (tools) => json('POST', `/api/admin/events/${await tools.fresh.event()}/payout-hold`, { reason: 'Authorization matrix check.' }), ok: 201 }],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.approved }), body: () => ({ reason: 'Fuzz run.' }) },
  },
  {
    method: 'DELETE',
    path: '/api/admin/events/:id/payout-hold',
    scenarios: [{ name: 'a fresh event, not held', request: async (tools) => ({ method: 'DELETE', path: `/api/admin/events/${await tools.fresh.event()}/payout-hold` }), ok: 409 }],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'PUT',
    path: '/api/admin/users/:id/early-payouts',
    scenarios: [{ name: "C's early payouts off", request: (tools) => json('PUT', `/api/admin/users/${tools.w.c.user._id}/early-payouts`, { allowed: false }), ok: 200 }],
    fuzz: { as: 'admin', params: (w) => ({ id: w.c.user._id }), body: () => ({ allowed: false }) },
  },
  {
    method: 'POST',
    path: '/api/admin/users/:id/deletion',
    // An unknown account: the matrix deletes nobody (account-deletion.test.ts deletes and restores one).
    scenarios: [{ name: 'an unknown account', request: () => json('POST', '/api/admin/users/0123456789abcdef01234567/deletion', { reason: 'Authorization matrix check.' }), ok: 404 }],
    fuzz: { as: 'admin', params: () => ({ id: '0123456789abcdef01234567' }), body: () => ({ reason: 'Fuzz run of the deletion.' }) },
  },
  {
    method: 'DELETE',
    path: '/api/admin/users/:id/deletion',
    scenarios: [{ name: "C's account, not scheduled", request: (tools) => ({ method: 'DELETE', path: `/api/admin/users/${tools.w.c.user._id}/deletion` }), ok: 404 }],
    fuzz: { as: 'admin', params: (w) => ({ id: w.c.user._id }) },
  },
  {
    method: 'GET',
    path: '/api/admin/account-deletions/accounts',
    scenarios: [{ name: "C's account by username", request: (tools) => get(`/api/admin/account-deletions/accounts${qs({ q: tools.w.c.user.username })}`), ok: 200 }],
    fuzz: { as: 'admin', query: (w) => ({ q: w.c.user.username }) },
  },
  {
    method: 'GET',
    path: '/api/admin/account-deletions',
    scenarios: [{ name: 'the deletion log', request: () => get('/api/admin/account-deletions'), ok: 200 }],
    fuzz: { as: 'admin' },
  },
  {
    method: 'POST',
    path: '/api/internal/payouts/results',
    scenarios: [
      {
        name: 'forged success without the key',
        request: () => json('POST', '/api/internal/payouts/results', { originatorConversationId: 'tukio-payout-0123456789abcdef01234567-1', resultCode: '0', transactionId: 'FORGED1234', source: 'callback' }),
        expect: all(401),
      },
    ],
    fuzz: {
      as: 'visitor',
      internal: true,
      body: () => ({ originatorConversationId: 'tukio-payout-0123456789abcdef01234567-1', resultCode: '0', resultDesc: 'ok', transactionId: 'SG632NMUAB', amount: 100, source: 'callback' }),
    },
  },
  {
    method: 'GET',
    path: '/api/admin/refunds/paged',
    scenarios: [{ name: 'refunds, a page', request: () => get('/api/admin/refunds/paged?status=due&limit=5'), ok: 200 }],
    fuzz: { as: 'admin', query: () => ({ status: 'due' }) },
  },
  {
    method: 'GET',
    path: '/api/admin/events',
    scenarios: [
      { name: 'every event, a page', request: () => get('/api/admin/events'), ok: 200 },
      { name: 'pending events of A', request: (tools) => get(`/api/admin/events?status=pending&user=${tools.w.a.user._id}`), ok: 200 },
    ],
    fuzz: { as: 'admin', query: () => ({ status: 'pending' }) },
  },
  {
    method: 'POST',
    path: '/api/admin/refunds/:id/retry',
    scenarios: [
      {
        name: 'a failed refund',
        request: async (tools) => json('POST', `/api/admin/refunds/${await failedRefund(tools)}/retry`),
        ok: 200,
        check: (res) => (res.body?.status === 'due' ? undefined : `retry left the refund ${String(res.body?.status)}`),
      },
      { name: 'an unknown refund', request: () => json('POST', '/api/admin/refunds/0123456789abcdef01234567/retry'), ok: 404 },
    ],
    fuzz: { as: 'admin', params: () => ({ id: '0123456789abcdef01234567' }) },
  },
  {
    method: 'GET',
    path: '/api/admin/unmatched-payments',
    scenarios: [{ name: 'the queue', request: () => get('/api/admin/unmatched-payments?status=waiting'), ok: 200 }],
    fuzz: { as: 'admin', query: () => ({ status: 'waiting' }) },
  },
  {
    method: 'POST',
    path: '/api/admin/unmatched-payments/:id/attach',
    scenarios: [{ name: 'an unknown payment', request: () => json('POST', '/api/admin/unmatched-payments/0123456789abcdef01234567/attach', { orderCode: 'ABCDEFG' }), ok: 404 }],
    fuzz: { as: 'admin', params: () => ({ id: '0123456789abcdef01234567' }), body: () => ({ orderCode: 'ABCDEFG' }) },
  },
  {
    method: 'GET',
    path: '/api/admin/reconciliation',
    scenarios: [{ name: 'the reconciliation report', request: () => get('/api/admin/reconciliation'), ok: 200 }],
    fuzz: { as: 'admin' },
  },
  {
    method: 'POST',
    path: '/api/admin/reconciliation/run',
    // No payment service in this test: the run is recorded as failed (200 with status failed).
    scenarios: [{ name: 'reconcile now', request: () => json('POST', '/api/admin/reconciliation/run', {}), ok: 200 }],
    fuzz: { as: 'admin' },
  },
  {
    method: 'POST',
    path: '/api/admin/reconciliation/findings/:id/review',
    scenarios: [{ name: 'an unknown finding', request: () => json('POST', '/api/admin/reconciliation/findings/0123456789abcdef01234567/review', { note: 'Checked with Safaricom' }), ok: 404 }],
    fuzz: { as: 'admin', params: () => ({ id: '0123456789abcdef01234567' }), body: () => ({ note: 'Checked with Safaricom' }) },
  },
  {
    method: 'POST',
    path: '/api/admin/unmatched-payments/:id/refund',
    scenarios: [{ name: 'an unknown payment', request: () => json('POST', '/api/admin/unmatched-payments/0123456789abcdef01234567/refund', { reason: 'Payer asked for it back' }), ok: 404 }],
    fuzz: { as: 'admin', params: () => ({ id: '0123456789abcdef01234567' }), body: () => ({ reason: 'Payer asked for it back' }) },
  },
  { method: 'GET', path: '/api/tickets/mine', scenarios: [{ name: 'own tickets', request: () => get('/api/tickets/mine'), ok: 200 }], fuzz: { as: 'a' } },
  { method: 'GET', path: '/api/tickets/mine/paged', scenarios: [{ name: 'own tickets, a page', request: () => get('/api/tickets/mine/paged'), ok: 200 }], fuzz: { as: 'a' } },
  {
    method: 'POST',
    path: '/api/tickets/:id/transfer',
    scenarios: [
      { name: "A's ticket to B", request: async (tools) => json('POST', `/api/tickets/${await aFreshTicket(tools)}/transfer`, { to: tools.w.b.user.username }), expect: aTicketOnly(200) },
      { name: 'an unknown ticket', request: (tools) => json('POST', '/api/tickets/0123456789abcdef01234567/transfer', { to: tools.w.b.user.username }), ok: 404 },
    ],
    fuzz: { as: 'a', params: () => ({ id: '0123456789abcdef01234567' }), body: (w) => ({ to: w.b.user.username }) },
  },
  {
    method: 'POST',
    path: '/api/tickets/cancel',
    scenarios: [
      { name: "A's ticket", request: async (tools) => json('POST', '/api/tickets/cancel', { ticketIds: [await aFreshTicket(tools)] }), expect: aTicketOnly(200) },
      { name: 'an unknown ticket', request: () => json('POST', '/api/tickets/cancel', { ticketIds: ['0123456789abcdef01234567'] }), ok: 404 },
    ],
    fuzz: { as: 'a', body: () => ({ ticketIds: ['0123456789abcdef01234567'] }) },
  },
  { method: 'GET', path: '/api/reservations', scenarios: [{ name: 'own reservations', request: () => get('/api/reservations'), ok: 200 }], fuzz: { as: 'a' } },
  {
    method: 'POST',
    path: '/api/reservations/:orderId/pay',
    // Reservations are found by their buyer only: anyone else's (or an unknown one) is a 404 (test/instalments.test.ts pays one).
    scenarios: [{ name: 'an unknown reservation', request: () => json('POST', '/api/reservations/0123456789abcdef01234567/pay', { amount: 100 }), ok: 404 }],
    fuzz: { as: 'a', params: () => ({ orderId: '0123456789abcdef01234567' }), body: () => ({ amount: 100 }) },
  },
  { method: 'GET', path: '/api/tickets/public-key', scenarios: [{ name: 'key', request: () => get('/api/tickets/public-key'), ok: 200 }], fuzz: { as: 'visitor' } },
  {
    method: 'POST',
    path: '/api/events/register/:id',
    scenarios: [
      { name: "as oneself on A's event", request: async (tools) => json('POST', `/api/events/register/${await tools.fresh.event()}`, { tickets: 1 }), ok: 200 },
      { name: 'as A', request: async (tools) => json('POST', `/api/events/register/${await tools.fresh.event()}`, { tickets: 1, userId: tools.w.a.user._id }), expect: selfOnly(200) },
      { name: "A's pending event", request: (tools) => json('POST', `/api/events/register/${tools.w.events.pending}`, { tickets: 1 }), expect: { visitor: 401, user: [400, 404], owner: [400, 404], other: [400, 404], admin: [400, 404] } },
      // Only A paid for the paid event: registration reads A's own paid order and nobody else's.
      {
        name: 'the paid event A paid for',
        request: (tools) => json('POST', `/api/events/register/${tools.w.events.paid}`, { tickets: 1 }),
        expect: { visitor: 401, user: 402, owner: 200, other: 402, admin: 402 },
        readOnlyFor: ['owner'],
      },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.approved }), body: (w) => ({ userId: w.b.user._id, tickets: 1 }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/checkin',
    scenarios: [
      {
        name: "B's ticket at A's event",
        request: async (tools) => {
          const eventId = await tools.fresh.event();
          return json('POST', `/api/events/${eventId}/checkin`, { code: await tools.fresh.bTicketCode(eventId) });
        },
        ok: 200,
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), body: (w) => ({ code: w.bTicketCode }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/checkin/sync',
    scenarios: [
      {
        name: "a gate's offline scan of B's ticket at A's event",
        request: async (tools) => {
          const eventId = await tools.fresh.event();
          const ticketCode = await tools.fresh.bTicketCode(eventId);
          return json('POST', `/api/events/${eventId}/checkin/sync`, { sentAt: new Date().toISOString(), scans: [{ ticketCode, scannedAt: new Date().toISOString(), device: 'Gate B' }] });
        },
        ok: 200,
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), body: (w) => ({ sentAt: new Date().toISOString(), scans: [{ ticketCode: w.bTicketCode, scannedAt: new Date().toISOString(), device: 'Gate B' }] }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/gate-list',
    scenarios: [{ name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/gate-list`), ok: 200 }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/attendees',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/attendees`), ok: 200 },
      { name: "A's event as CSV", request: (tools) => get(`/api/events/${tools.w.events.approved}/attendees?format=csv`), ok: 200 },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), query: () => ({ format: 'csv' }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/attendees/paged',
    scenarios: [{ name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/attendees/paged`), ok: 200 }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), query: () => ({ limit: '5' }) },
  },

  // ---- events ----
  { method: 'GET', path: '/api/events', scenarios: [{ name: 'search', request: () => get('/api/events?q=gala&limit=50'), ok: 200 }], fuzz: { as: 'visitor', query: () => ({ q: 'nairobi', page: '1', limit: '12', free: 'true' }) } },
  { method: 'GET', path: '/api/events/getevnt', scenarios: [{ name: 'list', request: () => get('/api/events/getevnt'), ok: 200 }], fuzz: { as: 'visitor' } },
  { method: 'GET', path: '/api/events/admin/approved', scenarios: [{ name: 'approved list', request: () => get('/api/events/admin/approved'), ok: 200 }], fuzz: { as: 'visitor' } },
  { method: 'GET', path: '/api/events/admin/pending', scenarios: [{ name: 'pending list', request: () => get('/api/events/admin/pending'), ok: 200 }], fuzz: { as: 'admin' } },
  {
    method: 'PUT',
    path: '/api/events/admin/approve/:id',
    scenarios: [{ name: "A's pending event", request: async (tools) => json('PUT', `/api/events/admin/approve/${await tools.fresh.event({ status: 'pending' })}`, {}), ok: 200 }],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'PUT',
    path: '/api/events/admin/disapprove/:id',
    scenarios: [{ name: "A's approved event", request: async (tools) => json('PUT', `/api/events/admin/disapprove/${await tools.fresh.event()}`, {}), ok: 200 }],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.pending }) },
  },
  {
    method: 'GET',
    path: '/api/events/admin/changes',
    scenarios: [{ name: 'changes waiting for review', request: () => get('/api/events/admin/changes'), ok: 200 }],
    fuzz: { as: 'admin' },
  },
  {
    method: 'PUT',
    path: '/api/events/admin/changes/:id/approve',
    scenarios: [
      { name: "A's event with changes waiting", request: async (tools) => json('PUT', `/api/events/admin/changes/${await eventWithPendingChange(tools)}/approve`, {}), ok: 200 },
      { name: "A's event with nothing waiting", request: async (tools) => json('PUT', `/api/events/admin/changes/${await tools.fresh.event()}/approve`, {}), expect: adminOnly(404) },
    ],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'PUT',
    path: '/api/events/admin/changes/:id/reject',
    scenarios: [
      {
        name: "A's event with changes waiting",
        request: async (tools) => json('PUT', `/api/events/admin/changes/${await eventWithPendingChange(tools)}/reject`, { reason: 'Not this time.' }),
        ok: 200,
      },
    ],
    fuzz: { as: 'admin', params: (w) => ({ id: w.events.approved }), body: () => ({ reason: 'No.' }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/pending-change',
    scenarios: [
      { name: "A's event with changes waiting", request: async (tools) => get(`/api/events/${await eventWithPendingChange(tools)}/pending-change`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/events/${tools.w.events.pending}/pending-change`), expect: pendingOwnerOrAdmin(200) },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'DELETE',
    path: '/api/events/:id/pending-change',
    scenarios: [{ name: "A's event with changes waiting", request: async (tools) => ({ method: 'DELETE', path: `/api/events/${await eventWithPendingChange(tools)}/pending-change` }), ok: 200 }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }) },
  },
  { method: 'GET', path: '/api/events/popular', scenarios: [{ name: 'popular', request: () => get('/api/events/popular?limit=50'), ok: 200 }], fuzz: { as: 'visitor', query: () => ({ limit: '10' }) } },
  { method: 'GET', path: '/api/events/upcoming', scenarios: [{ name: 'upcoming', request: () => get('/api/events/upcoming?limit=50'), ok: 200 }], fuzz: { as: 'visitor', query: () => ({ limit: '20' }) } },
  {
    method: 'GET',
    path: '/api/events/user/:userId',
    scenarios: [{ name: "A's events", request: (tools) => get(`/api/events/user/${tools.w.a.user._id}`), expect: selfOrAdmin(200) }],
    fuzz: { as: 'a', params: (w) => ({ userId: w.a.user._id }) },
  },
  {
    method: 'GET',
    path: '/api/events/user/:userId/paged',
    scenarios: [{ name: "A's events, a page", request: (tools) => get(`/api/events/user/${tools.w.a.user._id}/paged`), expect: selfOrAdmin(200) }],
    fuzz: { as: 'a', params: (w) => ({ userId: w.a.user._id }) },
  },
  {
    method: 'POST',
    path: '/api/events/addevnt',
    scenarios: [
      {
        name: 'claiming to be A',
        request: (tools) =>
          json('POST', '/api/events/addevnt', {
            title: 'Jazz night',
            description: 'Live jazz',
            date: dayFromNow(20),
            location: 'Nairobi',
            latitude: -1.28,
            longitude: 36.82,
            user: tools.w.a.user._id,
            image: null,
            isPaid: false,
            ticketPrice: 0,
          }),
        ok: 201,
        check: createdBy,
      },
      {
        name: 'publishing itself',
        request: () => json('POST', '/api/events/addevnt', { title: 'Self-approved', description: 'x', date: dayFromNow(21), location: 'Nairobi', latitude: -1.28, longitude: 36.82, status: 'approved' }),
        ok: 201,
        check: (res) => (res.body?.status === 'pending' ? undefined : `created with status ${String(res.body?.status)}`),
      },
    ],
    fuzz: {
      as: 'b',
      body: (w) => ({ title: 'Fuzz fest', description: 'Testing', date: dayFromNow(30), location: 'Mombasa', latitude: -4.04, longitude: 39.67, user: w.b.user._id, image: null, isPaid: true, ticketPrice: 100, capacity: 50 }),
    },
  },
  {
    method: 'POST',
    path: '/api/events/incrementOpenedCount/:id',
    scenarios: [
      { name: "A's approved event", request: (tools) => json('POST', `/api/events/incrementOpenedCount/${tools.w.events.approved}`), ok: 204 },
      // Pending events are not counted, for anyone.
      { name: "A's pending event", request: (tools) => json('POST', `/api/events/incrementOpenedCount/${tools.w.events.pending}`), ok: 404 },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'POST',
    path: '/api/events/share-track/:id',
    scenarios: [
      { name: "A's approved event", request: (tools) => json('POST', `/api/events/share-track/${tools.w.events.approved}`, { platform: 'whatsapp' }), ok: 200 },
      { name: "A's pending event", request: (tools) => json('POST', `/api/events/share-track/${tools.w.events.pending}`, { platform: 'whatsapp' }), ok: 404 },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ id: w.events.approved }), body: () => ({ platform: 'twitter' }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/related',
    scenarios: [
      { name: "A's approved event", request: (tools) => get(`/api/events/${tools.w.events.approved}/related`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/events/${tools.w.events.pending}/related`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id',
    scenarios: [
      { name: "A's approved event", request: (tools) => get(`/api/events/${tools.w.events.approved}`), ok: 200 },
      { name: "A's pending event", request: (tools) => get(`/api/events/${tools.w.events.pending}`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
      // A cancelled event stays as visible as it was: public when it had been published, hidden when not.
      {
        name: "A's cancelled event",
        request: async (tools) => get(`/api/events/${await tools.fresh.cancelledEvent()}`),
        ok: 200,
        check: (res) => (res.body?.status === 'cancelled' && res.body?.cancelReason === cancelReason.reason ? undefined : `cancelled event answered ${res.text.slice(0, 200)}`),
      },
      { name: "A's cancelled pending event", request: async (tools) => get(`/api/events/${await tools.fresh.cancelledEvent({ status: 'pending' })}`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/cancel',
    scenarios: [
      { name: "A's approved event", request: async (tools) => json('POST', `/api/events/${await tools.fresh.event()}/cancel`, cancelReason), ok: 200 },
      { name: "A's paid event with an order", request: async (tools) => json('POST', `/api/events/${await tools.fresh.paidEventWithOrder()}/cancel`, cancelReason), ok: 200 },
      { name: "A's pending event", request: async (tools) => json('POST', `/api/events/${await tools.fresh.event({ status: 'pending' })}/cancel`, cancelReason), expect: pendingOwnerOrAdmin(200) },
      { name: "A's cancelled event", request: async (tools) => json('POST', `/api/events/${await tools.fresh.cancelledEvent()}/cancel`, cancelReason), expect: selfOrAdmin(409) },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.approved }), body: () => cancelReason },
  },
  {
    method: 'GET',
    path: '/api/events/:id/dashboard',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/dashboard`), ok: 200 },
      { name: "A's event's daily sales as CSV", request: (tools) => get(`/api/events/${tools.w.events.approved}/dashboard?format=csv`), ok: 200 },
      { name: "A's pending event (missing to strangers)", request: (tools) => get(`/api/events/${tools.w.events.pending}/dashboard`), expect: pendingOwnerOrAdmin(200) },
      { name: "A's cancelled event with an order", request: async (tools) => get(`/api/events/${await cancelledPaidEvent(tools)}/dashboard`), ok: 200 },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), query: () => ({ format: 'csv' }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/refunds',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/refunds`), ok: 200 },
      { name: "A's cancelled event with an order", request: async (tools) => get(`/api/events/${await cancelledPaidEvent(tools)}/refunds`), ok: 200 },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/ledger',
    scenarios: [
      { name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/ledger`), ok: 200 },
      { name: "A's cancelled event with an order", request: async (tools) => get(`/api/events/${await cancelledPaidEvent(tools)}/ledger`), ok: 200 },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'POST',
    path: '/api/sms/opt-outs/:secret',
    scenarios: [
      { name: 'the callback secret, a number replying STOP', request: (tools) => json('POST', `/api/sms/opt-outs/${tools.w.t.config.sms.callbackSecret}`, { phoneNumber: '+254799000001', senderId: 'TUKIO' }), ok: 200 },
      { name: 'a wrong secret', request: () => json('POST', '/api/sms/opt-outs/not-the-secret-at-all', { phoneNumber: '+254799000002' }), ok: 404 },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ secret: w.t.config.sms.callbackSecret }), body: () => ({ phoneNumber: '+254799000003', senderId: 'TUKIO' }) },
  },
  {
    method: 'POST',
    path: '/api/sms/delivery-reports/:secret',
    scenarios: [
      {
        name: 'the delivery-report secret, an unknown message',
        request: (tools) => json('POST', `/api/sms/delivery-reports/${tools.w.t.config.sms.callbackSecret}`, { id: 'ATXid_not-ours', status: 'Success' }),
        ok: 200,
        readOnlyFor: ['visitor', 'user', 'owner', 'other', 'admin'],
      },
      { name: 'a wrong secret', request: () => json('POST', '/api/sms/delivery-reports/not-the-secret-at-all', { id: 'ATXid_x', status: 'Success' }), ok: 404 },
    ],
    fuzz: { as: 'visitor', params: (w) => ({ secret: w.t.config.sms.callbackSecret }), body: () => ({ id: 'ATXid_fuzz', status: 'Success' }) },
  },
  {
    method: 'GET',
    path: '/api/payout-account',
    scenarios: [{ name: "one's own payout destination (organisers and admins)", request: () => get('/api/payout-account'), expect: payoutOrganisers(200) }],
    fuzz: { as: 'a' },
  },
  {
    method: 'POST',
    path: '/api/payout-account',
    scenarios: [
      {
        name: "a new M-Pesa destination, with the actor's own password",
        request: (tools, actor) => json('POST', '/api/payout-account', { password: tools.w.personOf(actor)?.password ?? 'x', destination: { method: 'mpesa', phone: payoutPhone() } }),
        expect: payoutOrganisers(202),
      },
    ],
    fuzz: { as: 'a', body: (_w, as) => ({ password: as!.password, destination: { method: 'mpesa', phone: payoutPhone() } }) },
  },
  {
    method: 'POST',
    path: '/api/payout-account/confirm',
    scenarios: [
      {
        name: 'the code the SMS brought (organisers ask for one first)',
        request: async (tools, actor) => {
          const person = tools.w.personOf(actor);
          const phone = payoutPhone();
          const asked = await tools.call(person, 'POST', '/api/payout-account', { password: person?.password ?? 'x', destination: { method: 'mpesa', phone } });
          if (asked.status !== 202) return json('POST', '/api/payout-account/confirm', { code: '123456' });
          return json('POST', '/api/payout-account/confirm', { code: await payoutCodeSentTo(tools.w.t, phone) });
        },
        expect: payoutOrganisers(200),
      },
    ],
    fuzz: { as: 'a', body: () => ({ code: '123456' }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/dates',
    scenarios: [
      { name: "A's paid event", request: (tools) => get(`/api/events/${tools.w.events.paid}/dates`) },
      { name: "A's pending event (missing to strangers)", request: (tools) => get(`/api/events/${tools.w.events.pending}/dates`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.paid }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/dates',
    scenarios: [{ name: "A's event, a new date", request: async (tools) => json('POST', `/api/events/${await tools.fresh.event()}/dates`, { startsAt: dayFromNow(40), capacity: 10 }), ok: 201 }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), body: () => ({ startsAt: dayFromNow(41), capacity: 10 }) },
  },
  {
    method: 'PATCH',
    path: '/api/events/:id/dates/:dateId',
    scenarios: [
      {
        name: "A's series date, more seats",
        request: async (tools) => {
          const { eventId, dateId } = await aSeriesDate(tools);
          return json('PATCH', `/api/events/${eventId}/dates/${dateId}`, { capacity: 30 });
        },
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved, dateId: w.events.approved }), body: () => ({ capacity: 5 }) },
  },
  {
    method: 'DELETE',
    path: '/api/events/:id/dates/:dateId',
    scenarios: [
      {
        name: "A's series date nobody bought",
        request: async (tools) => {
          const { eventId, dateId } = await aSeriesDate(tools);
          return json('DELETE', `/api/events/${eventId}/dates/${dateId}`);
        },
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved, dateId: w.events.approved }), query: () => ({ confirm: 'false' }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/ticket-types',
    scenarios: [
      { name: "A's paid event", request: (tools) => get(`/api/events/${tools.w.events.paid}/ticket-types`) },
      { name: "A's pending event (missing to strangers)", request: (tools) => get(`/api/events/${tools.w.events.pending}/ticket-types`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.paid }) },
  },
  {
    method: 'PUT',
    path: '/api/events/:id/ticket-types',
    scenarios: [
      {
        name: "A's paid event, two types",
        request: async (tools) => json('PUT', `/api/events/${await tools.fresh.paidEventWithOrder()}/ticket-types`, { ticketTypes: [{ name: 'Regular', price: 100 }, { name: 'VIP', price: 900 }] }),
        ok: 409,
      },
      { name: "A's free event, one free type", request: async (tools) => json('PUT', `/api/events/${await tools.fresh.event()}/ticket-types`, { ticketTypes: [{ name: 'Entry', price: 0 }] }), ok: 200 },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), body: () => ({ ticketTypes: [{ name: 'Entry', price: 0 }] }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/quote',
    scenarios: [{ name: "A's paid event", request: (tools) => json('POST', `/api/events/${tools.w.events.paid}/quote`, { quantity: 1 }), ok: 200 }],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.paid }), body: () => ({ quantity: 1 }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/promo-codes',
    scenarios: [{ name: "A's paid event", request: async (tools) => get(`/api/events/${await tools.fresh.paidEventWithOrder()}/promo-codes`), ok: 200 }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/promo-codes',
    scenarios: [
      { name: "a new code on A's paid event", request: async (tools) => json('POST', `/api/events/${await tools.fresh.paidEventWithOrder()}/promo-codes`, { code: 'KARIBU', kind: 'percent', value: 10 }), ok: 201 },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid }), body: () => ({ code: 'FUZZ', kind: 'fixed', value: 10 }) },
  },
  {
    method: 'DELETE',
    path: '/api/events/:id/promo-codes/:codeId',
    scenarios: [
      {
        name: "an unused code of A's",
        request: async (tools) => {
          const eventId = await tools.fresh.paidEventWithOrder();
          const made = await tools.send('owner', json('POST', `/api/events/${eventId}/promo-codes`, { code: 'GONE', kind: 'fixed', value: 10 }));
          return { method: 'DELETE', path: `/api/events/${eventId}/promo-codes/${(made.body as { _id: string })._id}` };
        },
        ok: 200,
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid, codeId: '0123456789abcdef01234567' }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/questions',
    scenarios: [
      { name: "A's paid event", request: (tools) => get(`/api/events/${tools.w.events.paid}/questions`) },
      { name: "A's pending event (missing to strangers)", request: (tools) => get(`/api/events/${tools.w.events.pending}/questions`), expect: { ...pendingOwnerOrAdmin(200), visitor: 404 } },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.paid }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/questions',
    scenarios: [{ name: "a question on A's paid event", request: async (tools) => json('POST', `/api/events/${await tools.fresh.paidEventWithOrder()}/questions`, { label: 'Name on ticket', kind: 'text', per: 'attendee' }), ok: 201 }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid }), body: () => ({ label: 'Fuzz', kind: 'choice', options: ['A', 'B'], required: false, per: 'order' }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/questions/reorder',
    scenarios: [
      {
        name: "A's two questions, swapped",
        request: async (tools) => {
          const eventId = await tools.fresh.paidEventWithOrder();
          const first = await tools.send('owner', json('POST', `/api/events/${eventId}/questions`, { label: 'First', kind: 'text' }));
          const second = await tools.send('owner', json('POST', `/api/events/${eventId}/questions`, { label: 'Second', kind: 'yes_no' }));
          return json('POST', `/api/events/${eventId}/questions/reorder`, { ids: [(second.body as { _id: string })._id, (first.body as { _id: string })._id] });
        },
        ok: 200,
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid }), body: () => ({ ids: [] }) },
  },
  {
    method: 'PUT',
    path: '/api/events/:id/questions/:questionId',
    scenarios: [
      {
        name: "a question of A's",
        request: async (tools) => {
          const eventId = await tools.fresh.paidEventWithOrder();
          const made = await tools.send('owner', json('POST', `/api/events/${eventId}/questions`, { label: 'Size', kind: 'text' }));
          return json('PUT', `/api/events/${eventId}/questions/${(made.body as { _id: string })._id}`, { label: 'T-shirt size', kind: 'choice', options: ['S', 'M'] });
        },
        ok: 200,
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid, questionId: '0123456789abcdef01234567' }), body: () => ({ label: 'Fuzz', kind: 'text' }) },
  },
  {
    method: 'DELETE',
    path: '/api/events/:id/questions/:questionId',
    scenarios: [
      {
        name: "a question of A's",
        request: async (tools) => {
          const eventId = await tools.fresh.paidEventWithOrder();
          const made = await tools.send('owner', json('POST', `/api/events/${eventId}/questions`, { label: 'Gone', kind: 'email' }));
          return { method: 'DELETE', path: `/api/events/${eventId}/questions/${(made.body as { _id: string })._id}` };
        },
        ok: 200,
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.paid, questionId: '0123456789abcdef01234567' }) },
  },
  {
    method: 'GET',
    path: '/api/me/orders/:orderId/answers',
    // Answers are the buyer's alone (A bought this order): not the organiser's to change, not an admin's.
    scenarios: [{ name: "A's own order", request: (tools) => get(`/api/me/orders/${tools.w.orderId}/answers`), expect: selfOnly(200) }],
    fuzz: { as: 'a', params: (w) => ({ orderId: w.orderId }) },
  },
  {
    method: 'PUT',
    path: '/api/me/orders/:orderId/answers',
    scenarios: [{ name: "A's own order (its event asks nothing)", request: (tools) => json('PUT', `/api/me/orders/${tools.w.orderId}/answers`, { answers: [] }), expect: selfOnly(200) }],
    fuzz: { as: 'a', params: (w) => ({ orderId: w.orderId }), body: () => ({ answers: [] }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/waitlist',
    scenarios: [{ name: "A's sold-out event", request: async (tools) => json('POST', `/api/events/${await tools.fresh.soldOutEvent()}/waitlist`, { quantity: 1 }), ok: 201 }],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.approved }), body: () => ({ quantity: 1 }) },
  },
  {
    method: 'DELETE',
    path: '/api/events/:id/waitlist',
    scenarios: [
      {
        name: 'a place the caller took',
        request: async (tools, actor) => {
          const eventId = await tools.fresh.soldOutEvent();
          if (actor !== 'visitor') await tools.send(actor, json('POST', `/api/events/${eventId}/waitlist`, { quantity: 1 }));
          return { method: 'DELETE', path: `/api/events/${eventId}/waitlist` };
        },
      },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/waitlist/mine',
    scenarios: [{ name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/waitlist/mine`) }],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'POST',
    path: '/api/events/:id/queue',
    scenarios: [
      // Signed in: the account takes a place; a visitor must name the purchase's phone.
      { name: "A's event", request: (tools) => json('POST', `/api/events/${tools.w.events.approved}/queue`, {}), expect: { ...all(200), visitor: 400 } },
      { name: "A's event, a guest's phone", request: (tools) => json('POST', `/api/events/${tools.w.events.approved}/queue`, { phone: '254712345678' }) },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.approved }), body: () => ({}) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/queue',
    scenarios: [
      // Signed in: the account's place; a visitor must name the purchase's phone.
      { name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/queue`), expect: { ...all(200), visitor: 400 } },
      { name: "A's event, a guest's phone", request: (tools) => get(`/api/events/${tools.w.events.approved}/queue?phone=254712345678`) },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'GET',
    path: '/api/events/:id/waitlist',
    scenarios: [{ name: "A's event", request: (tools) => get(`/api/events/${tools.w.events.approved}/waitlist`) }],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }) },
  },
  {
    method: 'PUT',
    path: '/api/events/:id',
    scenarios: [
      {
        // A fresh event each time: the organiser's edit waits for review beside the live version, an admin's applies.
        name: "A's approved event",
        request: async (tools) => json('PUT', `/api/events/${await tools.fresh.event()}`, { description: `Updated ${unique()}` }),
        ok: 200,
        check: (res, _tools, actor) => {
          const waits = Boolean(res.body?.pendingChange);
          return res.status !== 200 || (res.body?.status === 'approved' && res.body?.reReview === false && waits === (actor === 'owner' || actor === 'coOrganiser'))
            ? undefined
            : `edit by ${actor} left status ${String(res.body?.status)}, reReview ${String(res.body?.reReview)}, pendingChange ${waits}`;
        },
      },
      { name: "A's pending event", request: (tools) => json('PUT', `/api/events/${tools.w.events.pending}`, { description: `Updated ${unique()}` }), expect: pendingOwnerOrAdmin(200) },
      {
        name: "handing A's event to the caller",
        request: async (tools, actor) => json('PUT', `/api/events/${await tools.fresh.event()}`, { user: me(tools, actor), userId: me(tools, actor), description: 'Mine now' }),
        ok: 200,
        check: (res, tools) => (res.body?.user === tools.w.a.user._id ? undefined : `event now belongs to ${String(res.body?.user)}`),
      },
      {
        name: "approving A's pending event",
        request: async (tools) => json('PUT', `/api/events/${await tools.fresh.event({ status: 'pending' })}`, { status: 'approved' }),
        expect: adminOnly(200),
      },
    ],
    fuzz: { as: 'a', params: (w) => ({ id: w.events.approved }), body: () => ({ title: 'Open day', description: 'Updated', date: dayFromNow(11), location: 'Nakuru', ticketPrice: 0, capacity: 200 }) },
  },
  {
    method: 'DELETE',
    path: '/api/events/:id',
    scenarios: [
      { name: "A's approved event", request: async (tools) => ({ method: 'DELETE', path: `/api/events/${await tools.fresh.event()}` }), ok: 200 },
      { name: "A's pending event", request: async (tools) => ({ method: 'DELETE', path: `/api/events/${await tools.fresh.event({ status: 'pending' })}` }), expect: pendingOwnerOrAdmin(200) },
      // Orders (here a paid one) keep an event, so buyers' payments survive: deleting it cancels it instead.
      {
        name: "A's paid event with an order",
        request: async (tools) => ({ method: 'DELETE', path: `/api/events/${await tools.fresh.paidEventWithOrder()}` }),
        ok: 200,
        check: (res) => (res.body?.cancelled === true ? undefined : `an event with orders was not cancelled: ${res.text}`),
      },
      { name: "A's cancelled event with an order", request: async (tools) => ({ method: 'DELETE', path: `/api/events/${await cancelledPaidEvent(tools)}` }), expect: selfOrAdmin(409) },
    ],
    fuzz: { as: 'b', params: (w) => ({ id: w.events.approved }) },
  },

  // ---- uploads, geocoding ----
  {
    method: 'POST',
    path: '/api/uploads',
    scenarios: [
      {
        name: 'an image',
        request: () => {
          const form = multipart([{ name: 'file', filename: 'poster.gif', type: 'image/gif', content: tinyGif() }]);
          return { method: 'POST', path: '/api/uploads', headers: { 'content-type': form.contentType }, body: form.body };
        },
        ok: 201,
      },
    ],
    fuzz: { as: 'a', upload: true },
  },
  { method: 'GET', path: '/api/geocode', scenarios: [{ name: 'a place', request: () => get(`/api/geocode${qs({ q: 'KICC, Nairobi' })}`), ok: 200 }], fuzz: { as: 'visitor', query: () => ({ q: 'Kasarani' }) } },

  // ---- teams (A's co-organiser, finance and gate staff join in security.ts's world) ----
  {
    method: 'GET',
    path: '/api/teams',
    scenarios: [
      {
        name: "the caller's own team",
        request: () => get('/api/teams'),
        // A's team lists usernames only: no member's or A's email.
        check: (res, tools) => (JSON.stringify(res.body).includes(tools.w.team.finance.user.email) ? 'the team list shows a member’s email' : undefined),
      },
    ],
    fuzz: { as: 'a', query: (w) => ({ eventId: w.events.approved }) },
  },
  {
    method: 'POST',
    path: '/api/teams/invitations',
    scenarios: [
      {
        // Only A organises A's event: everyone else is refused by the service (admins too: team changes are the organiser's).
        name: "inviting C to A's event",
        request: async (tools) => json('POST', '/api/teams/invitations', { invitee: tools.w.c.user.username, role: 'gate_staff', eventId: await tools.fresh.event() }),
        expect: { visitor: 401, user: [400, 403], owner: 201, other: 403, admin: 403 },
      },
    ],
    fuzz: { as: 'a', body: (w) => ({ invitee: w.c.user.username, role: 'finance', eventId: w.events.approved }) },
  },
  {
    method: 'DELETE',
    path: '/api/teams/invitations/:id',
    scenarios: [
      {
        name: "A's pending invitation to C",
        request: async (tools) => {
          const invited = await tools.call(tools.w.a, 'POST', '/api/teams/invitations', { invitee: tools.w.c.user.username, role: 'gate_staff', eventId: await tools.fresh.event() });
          return { method: 'DELETE', path: `/api/teams/invitations/${(invited.body as { _id: string })._id}` };
        },
        // Someone else's invitation does not exist for the caller.
        expect: { visitor: 401, user: 404, owner: 200, other: 404, admin: 404 },
      },
    ],
    fuzz: { as: 'a', params: () => ({ id: '0123456789abcdef01234567' }) },
  },
  {
    method: 'POST',
    path: '/api/teams/invitations/:id/resend',
    scenarios: [
      {
        name: "A's pending invitation to C",
        request: async (tools) => {
          const invited = await tools.call(tools.w.a, 'POST', '/api/teams/invitations', { invitee: tools.w.c.user.username, role: 'gate_staff', eventId: await tools.fresh.event() });
          return json('POST', `/api/teams/invitations/${(invited.body as { _id: string })._id}/resend`);
        },
        // Only the organiser who sent it resends it; someone else's invitation does not exist for the caller.
        expect: { visitor: 401, user: 404, owner: 200, other: 404, admin: 404 },
      },
    ],
    fuzz: { as: 'a', params: () => ({ id: '0123456789abcdef01234567' }) },
  },
  {
    method: 'DELETE',
    path: '/api/teams/members/:id',
    scenarios: [
      {
        name: "C on A's team for one event",
        request: async (tools) => {
          const invited = await tools.call(tools.w.a, 'POST', '/api/teams/invitations', { invitee: tools.w.c.user.username, role: 'gate_staff', eventId: await tools.fresh.event() });
          await tools.call(tools.w.c, 'POST', `/api/teams/invitations/${(invited.body as { _id: string })._id}/accept`);
          const team = await tools.call(tools.w.a, 'GET', '/api/teams');
          const member = (team.body as { members: Array<{ _id: string; user: { _id: string }; event: { _id: string } | null }> }).members.find(
            (row) => row.user._id === tools.w.c.user._id && row.event?._id === (invited.body as { event: { _id: string } }).event._id,
          );
          return { method: 'DELETE', path: `/api/teams/members/${member!._id}` };
        },
        expect: { visitor: 401, user: 404, owner: 200, other: 404, admin: 404 },
      },
    ],
    fuzz: { as: 'a', params: () => ({ id: '0123456789abcdef01234567' }) },
  },
  { method: 'GET', path: '/api/teams/invitations/mine', scenarios: [{ name: "the caller's invitations", request: () => get('/api/teams/invitations/mine') }], fuzz: { as: 'b' } },
  {
    method: 'POST',
    path: '/api/teams/invitations/:id/accept',
    scenarios: [
      {
        // A invites B: only B may answer; to anyone else the invitation does not exist.
        name: "A's invitation to B",
        request: async (tools) => {
          const invited = await tools.call(tools.w.a, 'POST', '/api/teams/invitations', { invitee: tools.w.b.user.username, role: 'finance', eventId: await tools.fresh.event() });
          return json('POST', `/api/teams/invitations/${(invited.body as { _id: string })._id}/accept`);
        },
        expect: { visitor: 401, user: 404, owner: 404, other: 200, admin: 404 },
      },
    ],
    fuzz: { as: 'b', params: () => ({ id: '0123456789abcdef01234567' }) },
  },
  {
    method: 'POST',
    path: '/api/teams/invitations/:id/decline',
    scenarios: [
      {
        name: "A's invitation to B",
        request: async (tools) => {
          const invited = await tools.call(tools.w.a, 'POST', '/api/teams/invitations', { invitee: tools.w.b.user.username, role: 'finance', eventId: await tools.fresh.event() });
          return json('POST', `/api/teams/invitations/${(invited.body as { _id: string })._id}/decline`);
        },
        expect: { visitor: 401, user: 404, owner: 404, other: 200, admin: 404 },
      },
    ],
    fuzz: { as: 'b', params: () => ({ id: '0123456789abcdef01234567' }) },
  },
  { method: 'GET', path: '/api/teams/memberships/mine', scenarios: [{ name: "the caller's teams", request: () => get('/api/teams/memberships/mine') }], fuzz: { as: 'b' } },
];

export const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
