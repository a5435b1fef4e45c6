import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from '../src/lib/route-declaration.js';
import { expectedRow, gateContradictions, routeKey, routeTable, teamExpectation, type Scenario } from './helpers/route-table.js';
import {
  ACTORS,
  buildWorld,
  changeLogMark,
  declaredApiRoutes,
  errorBodyProblems,
  installChangeLog,
  leakedSecrets,
  mountedApiRoutes,
  quiesce,
  tablesChangedSince,
  TEAM_ACTORS,
  type Actor,
  type TeamActor,
  type WorldTools,
} from './helpers/security.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * Authorization matrix: every mounted API route × {visitor, signed-in user, owner, another user,
 * admin}, and every organiser-scoped route also × A's {co-organiser, finance, gate staff} (their row
 * derived from the route's `team` permission and the role table, src/lib/team-access.ts) against real resources (events of A, pending and approved; A's comment, review, thread and
 * post; a chat between A and B; A's paid order and tickets). Each cell checks the status, that a
 * refused request left every table exactly as it was, and that no answer carries a value the actor
 * may not see (A's email, chat text, ticket codes, checkout ids, receipts, the pending event's title,
 * the JWT secret or the internal key).
 */

let t: TestServer;
let tools: WorldTools;
/** Each route's declaration by `METHOD /path`: the access the row is derived from. */
let declared: Map<string, DeclaredRoute>;

beforeAll(async () => {
  t = await startTestServer();
  declared = new Map(declaredApiRoutes(t).map((route) => [routeKey({ method: route.method.toUpperCase(), path: route.fullPath }), route]));
  tools = await buildWorld(t);
  await installChangeLog(t);
}, 180_000);
afterAll(async () => {
  if (t) await quiesce(t);
  await t?.close();
});

const matches = (expected: number | readonly number[], status: number) => (typeof expected === 'number' ? [expected] : expected).includes(status);

let cells = 0;

async function runCell(method: string, scenario: Scenario, expected: number | readonly number[], actor: Actor, seesAs: Actor = actor): Promise<string[]> {
  const problems: string[] = [];
  const request = await scenario.request(tools, actor);
  const mark = await changeLogMark(t);
  const res = await tools.send(actor, request);
  const changed = await tablesChangedSince(t, mark);
  cells += 1;
  const where = `${actor} ${request.method} ${request.path} [${scenario.name}]`;
  if (!matches(expected, res.status)) problems.push(`${where}: expected ${JSON.stringify(expected)}, got ${res.status} ${res.text.slice(0, 200)}`);
  if (res.status >= 400) {
    if (changed.length) problems.push(`${where}: refused with ${res.status} but changed ${changed.join(', ')}`);
    for (const problem of errorBodyProblems(res, String(request.body ?? ''))) problems.push(`${where}: ${problem}`);
  } else if ((method === 'GET' || scenario.readOnlyFor?.includes(actor)) && changed.length) {
    problems.push(`${where}: a read changed ${changed.join(', ')}`);
  }
  if (res.status >= 500) problems.push(`${where}: server error`);
  const leaks = leakedSecrets(tools.w, seesAs, res.text, res.status < 300 ? scenario.reveals : []);
  if (leaks.length) problems.push(`${where}: leaked ${leaks.join(', ')}`);
  const checked = res.status < 300 ? await scenario.check?.(res, tools, actor) : undefined;
  if (checked) problems.push(`${where}: ${checked}`);
  await scenario.after?.(tools, actor);
  return problems;
}

describe('authorization matrix', () => {
  it('scripts every mounted API route (and lists no route that is not mounted); every mounted route is declared', () => {
    const mounted = mountedApiRoutes(t).map(routeKey).sort();
    expect(mounted.filter((key) => !declared.has(key)), 'mounted routes without a declaration (declareRoutes)').toEqual([]);
    const table = routeTable.map(routeKey).sort();
    expect(mounted.filter((key) => !table.includes(key)), 'mounted routes missing from test/helpers/route-table.ts').toEqual([]);
    expect(table.filter((key) => !mounted.includes(key)), 'table routes that are not mounted').toEqual([]);
    expect(new Set(table).size).toBe(table.length);
    for (const entry of routeTable) expect(entry.scenarios.length, routeKey(entry)).toBeGreaterThan(0);
  });

  it('sees every real change a request could make, and only those', async () => {
    const a = tools.w.a.user._id;
    let mark = await changeLogMark(t);
    await t.db.execute(sql`update users set language = language where id = ${a}`);
    expect(await tablesChangedSince(t, mark), 'an update to the same values').toEqual([]);
    await t.db.execute(sql`update users set language = case when language = 'en' then 'sw' else 'en' end where id = ${a}`);
    await t.db.execute(sql`update users set language = case when language = 'en' then 'sw' else 'en' end where id = ${a}`);
    expect(await tablesChangedSince(t, mark), 'a real update, even one undone').toEqual(['users']);
    // Compared in part: the mail sender's own updates of a queued mail are no change; a new mail is, and so is its removal.
    mark = await changeLogMark(t);
    const updated = (await t.db.execute(sql`update mail_outbox set updated_at = now() where id = (select id from mail_outbox limit 1) returning id`)) as unknown as { rows: unknown[] };
    expect(updated.rows).toHaveLength(1);
    expect(await tablesChangedSince(t, mark)).toEqual([]);
    const copyId = 'ffffffffffffffffffffffff';
    await t.db.execute(sql`insert into mail_outbox
      select (jsonb_populate_record(null::mail_outbox, to_jsonb(m) || jsonb_build_object('id', ${copyId}::text, 'dedupe_key', null))).* from mail_outbox m limit 1`);
    expect(await tablesChangedSince(t, mark), 'a new mail').toEqual(['mail_outbox']);
    mark = await changeLogMark(t);
    await t.db.execute(sql`delete from mail_outbox where id = ${copyId}`);
    expect(await tablesChangedSince(t, mark), 'a removed mail').toEqual(['mail_outbox']);
  });

  for (const entry of routeTable) {
    it(`${routeKey(entry)}`, async () => {
      const route = declared.get(routeKey(entry));
      expect(route, `${routeKey(entry)} has no declaration`).toBeDefined();
      const problems: string[] = [];
      for (const scenario of entry.scenarios) {
        // The row comes from the declaration; a scenario that spells out its own must not contradict the gate.
        const expectation = scenario.expect ?? expectedRow(route!, scenario.ok ?? 200);
        for (const problem of scenario.beforeGate ? [] : gateContradictions(route!, expectation)) problems.push(`[${scenario.name}] declared ${route!.access}: ${problem}`);
        for (const actor of ACTORS) problems.push(...(await runCell(entry.method, scenario, expectation[actor], actor)));
        // Organiser-scoped routes: A's co-organiser, finance and gate staff, each as the role table says.
        if (route!.team) {
          for (const actor of Object.keys(TEAM_ACTORS) as TeamActor[]) {
            const expected = teamExpectation(route!, expectation, actor);
            // A member the role lets act for A may see what A sees there.
            problems.push(...(await runCell(entry.method, scenario, expected, actor, expected === 403 ? actor : 'owner')));
          }
        }
      }
      expect(problems).toEqual([]);
    }, 120_000);
  }

  it('kept every secret where it belongs after the whole matrix', async () => {
    // The world is still intact: A still owns what it owned and B's chat is still B's.
    const a = tools.w.a;
    const conversation = await tools.call(tools.w.b, 'POST', '/api/messages/getmsg', { from: tools.w.b.user._id, to: a.user._id });
    expect(conversation.text).toContain(tools.w.chatSecret);
    const history = await tools.call(a, 'GET', `/api/transactions/${a.user._id}`);
    expect(history.body[0]).toMatchObject({ checkoutRequestId: tools.w.checkoutRequestId, paymentStatus: 'success', amount: 1000 });
    const pending = await tools.call(a, 'GET', `/api/events/${tools.w.events.pending}`);
    expect(pending.body).toMatchObject({ user: a.user._id, status: 'pending', title: tools.w.pendingTitle });
    console.log(`[authz-matrix] ${routeTable.length} routes, ${routeTable.reduce((n, e) => n + e.scenarios.length, 0)} scenarios, ${cells} cells`);
  });
});
