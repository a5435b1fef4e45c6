import type { Socket } from 'socket.io-client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatRepository } from '../src/modules/chat/chat.repository.js';
import { chooseRedisAdapter } from '../src/realtime.js';
import { drained, emitWithAck, nextEvent, received, socketTracker } from './helpers/chat-sockets.js';
import { acrossRestart, startTestServer, startTwoInstancesOnRedis, type TestServer } from './helpers/test-server.js';

type Session = Awaited<ReturnType<TestServer['createUser']>>;

const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>').toString('base64');
const sockets = socketTracker();
const openSocket = sockets.open;

let t: TestServer;
let a: Session;
let b: Session;
let c: Session;

beforeAll(async () => {
  t = await startTestServer();
  [a, b, c] = [await t.createUser('asha'), await t.createUser('bahati'), await t.createUser('chege')];
  for (const s of [a, b]) await t.api('POST', `/api/auth/setavatar/${s.user._id}`, { token: s.token, body: { image: svg } });
});

afterAll(async () => {
  sockets.closeAll();
  await t?.close();
});

describe('chat over HTTP', () => {
  it('lists contacts for the caller only (nobody before a first message: security-sessions.test.ts)', async () => {
    const res = await t.api('GET', `/api/auth/allusers/${a.user._id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect((await t.api('GET', `/api/auth/allusers/${b.user._id}`, { token: a.token })).status).toBe(403);
    expect((await t.api('GET', `/api/auth/allusers/${a.user._id}`)).status).toBe(401);
  });

  it('sends through both contract paths and reads the conversation oldest first', async () => {
    const first = await t.api('POST', '/api/auth/sendMessage', { token: a.token, body: { from: a.user._id, to: b.user._id, message: 'Habari!' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ from: a.user._id, to: b.user._id, message: 'Habari!' });
    const second = await t.api('POST', '/api/messages/addmsg', { token: b.token, body: { from: b.user._id, to: a.user._id, message: 'Nzuri sana' } });
    expect(second.status).toBe(200);

    const forA = await t.api('POST', '/api/messages/getmsg', { token: a.token, body: { from: a.user._id, to: b.user._id } });
    expect(forA.body.map((m: { fromSelf: boolean; message: string }) => [m.fromSelf, m.message])).toEqual([
      [true, 'Habari!'],
      [false, 'Nzuri sana'],
    ]);
    expect(typeof forA.body[0].createdAt).toBe('string');
  });

  it('refuses to speak or read as someone else, empty and oversized messages', async () => {
    const forged = await t.api('POST', '/api/auth/sendMessage', { token: c.token, body: { from: a.user._id, to: b.user._id, message: 'fake' } });
    expect(forged.status).toBe(403);
    const snoop = await t.api('POST', '/api/messages/getmsg', { token: c.token, body: { from: a.user._id, to: b.user._id } });
    expect(snoop.status).toBe(403);
    expect((await t.api('POST', '/api/messages/getmsg', { body: { from: a.user._id, to: b.user._id } })).status).toBe(401);
    const empty = await t.api('POST', '/api/messages/addmsg', { token: a.token, body: { from: a.user._id, to: b.user._id, message: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('Message cannot be empty.');
    const huge = await t.api('POST', '/api/messages/addmsg', { token: a.token, body: { from: a.user._id, to: b.user._id, message: 'x'.repeat(2001) } });
    expect(huge.status).toBe(400);
    expect(huge.body.msg).toBe('Message must be at most 2000 characters.');
    const nobody = await t.api('POST', '/api/messages/addmsg', { token: a.token, body: { from: a.user._id, to: 'ffffffffffffffffffffffff', message: 'hi' } });
    expect(nobody.status).toBe(404);
  });

  it('counts unread messages per contact and clears them when read', async () => {
    await t.api('POST', '/api/messages/addmsg', { token: c.token, body: { from: c.user._id, to: b.user._id, message: 'one' } });
    await t.api('POST', '/api/messages/addmsg', { token: c.token, body: { from: c.user._id, to: b.user._id, message: 'two' } });
    const unread = await t.api('GET', '/api/messages/unread', { token: b.token });
    expect(unread.body[c.user._id]).toBe(2);
    await t.api('POST', `/api/messages/read/${c.user._id}`, { token: b.token });
    expect((await t.api('GET', '/api/messages/unread', { token: b.token })).body[c.user._id]).toBeUndefined();
  });
});

describe('chat over Socket.IO', () => {
  it('refuses a socket without a valid token', async () => {
    await expect(openSocket(t.url, undefined)).rejects.toThrow(/Authentication required/);
    await expect(openSocket(t.url, 'not-a-token')).rejects.toThrow(/Authentication required/);
  });

  it('refuses add-user with someone else’s id', async () => {
    const socket = await openSocket(t.url, c.token);
    expect(await emitWithAck(socket, 'add-user', a.user._id)).toMatchObject({ ok: false });
    expect(await emitWithAck(socket, 'add-user', c.user._id)).toMatchObject({ ok: true });
  });

  it('delivers A’s message to both of B’s tabs and not to C, and stores it', async () => {
    const [aSocket, aOtherTab] = [await openSocket(t.url, a.token), await openSocket(t.url, a.token)];
    const [bTab1, bTab2, cSocket] = await Promise.all([openSocket(t.url, b.token), openSocket(t.url, b.token), openSocket(t.url, c.token)]);
    const cGot = received(cSocket, 'msg-recieve');
    const sendingTabGot = received(aSocket, 'chat:sent');
    const otherTab = nextEvent<{ _id: string }>(aOtherTab, 'chat:sent');
    const tab1 = nextEvent<string>(bTab1, 'msg-recieve');
    const tab2 = nextEvent<string>(bTab2, 'msg-recieve');
    const rich = nextEvent<{ from: string; _id: string; createdAt: string }>(bTab1, 'chat:message');

    const ack = await emitWithAck(aSocket, 'send-msg', { to: b.user._id, from: a.user._id, message: 'Tuonane kesho 🎉' });
    expect(ack.ok).toBe(true);
    expect(await tab1).toBe('Tuonane kesho 🎉');
    expect(await tab2).toBe('Tuonane kesho 🎉');
    expect(await rich).toMatchObject({ from: a.user._id, _id: ack.message!._id });
    // The sender's other tab hears of it; the sending tab has it in the acknowledgement only.
    expect(await otherTab).toMatchObject({ _id: ack.message!._id });
    // Delivery happens before the acknowledgement: after a round trip on each socket, anything sent has arrived.
    await Promise.all([drained(cSocket, c.user._id), drained(aSocket, a.user._id)]);
    expect(cGot).toEqual([]);
    expect(sendingTabGot).toEqual([]);

    const history = await t.api('POST', '/api/messages/getmsg', { token: b.token, body: { from: b.user._id, to: a.user._id } });
    expect(history.body.at(-1)).toMatchObject({ fromSelf: false, message: 'Tuonane kesho 🎉' });
  });

  it('refuses send-msg as someone else', async () => {
    const cSocket = await openSocket(t.url, c.token);
    const bSocket = await openSocket(t.url, b.token);
    const bGot = received(bSocket, 'msg-recieve');
    const ack = await emitWithAck(cSocket, 'send-msg', { to: b.user._id, from: a.user._id, message: 'forged' });
    expect(ack).toMatchObject({ ok: false, msg: 'You can only send messages as yourself.' });
    await drained(bSocket, b.user._id);
    expect(bGot).toEqual([]);
  });
});

type PresenceBatch = { changes: Array<{ userId: string; online: boolean }> };
/** Waits until `socket` has been told `userId` is online (or offline), across batches. */
function presenceOf(socket: Socket, userId: string, online: boolean, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${userId} not announced ${online ? 'online' : 'offline'} within ${timeoutMs} ms`)), timeoutMs);
    const listener = (batch: PresenceBatch) => {
      if (!batch.changes.some((change) => change.userId === userId && change.online === online)) return;
      clearTimeout(timer);
      socket.off('presence', listener);
      resolve();
    };
    socket.on('presence', listener);
  });
}
/**
 * Waits until the server holds `openTabs` sockets of `userId` (so a close has been handled), then until
 * `watcher` has every presence batch that could carry it: a user connecting afterwards is announced in
 * the same batch as anything queued before, or a later one.
 */
async function batchesSettled(watcher: Socket, watching: Session, userId: string, openTabs: number) {
  await expect.poll(async () => (await t.io.in(`user:${userId}`).fetchSockets()).length, { timeout: 15_000, interval: 20 }).toBe(openTabs);
  const marker = await t.createUser(`marker${userId.slice(-6)}`);
  await befriend(marker, watching);
  const announced = presenceOf(watcher, marker.user._id, true);
  const markerSocket = await openSocket(t.url, marker.token);
  await announced;
  markerSocket.close();
}
/** Makes the two contacts: presence is shown only between people who have exchanged a message. */
async function befriend(from: Session, to: Session) {
  const sent = await t.api('POST', '/api/messages/addmsg', { token: from.token, body: { from: from.user._id, to: to.user._id, message: 'Habari' } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
}
const onlineUsers = async (socket: Socket) => ((await socket.timeout(5000).emitWithAck('online-users')) as { users: string[] }).users;

describe('presence', () => {
  // Users of their own: the other tests leave sockets open.
  it('announces connects and the last tab closing in batches, and lists who is online', async () => {
    const [watching, leaving] = [await t.createUser('wanjala'), await t.createUser('kerubo')];
    await befriend(leaving, watching);
    const watcher = await openSocket(t.url, watching.token);
    const cameOnline = presenceOf(watcher, leaving.user._id, true);
    const first = await openSocket(t.url, leaving.token);
    const second = await openSocket(t.url, leaving.token);
    await cameOnline;
    expect(await onlineUsers(watcher)).toEqual(expect.arrayContaining([leaving.user._id, watching.user._id]));

    // One tab closing leaves the user online; the last one takes them offline.
    const batches = received(watcher, 'presence') as PresenceBatch[];
    first.close();
    await batchesSettled(watcher, watching, leaving.user._id, 1);
    expect(batches.flatMap((batch) => batch.changes)).not.toContainEqual({ userId: leaving.user._id, online: false });
    const wentOffline = presenceOf(watcher, leaving.user._id, false);
    second.close();
    await wentOffline;
    await expect.poll(() => onlineUsers(watcher), { timeout: 15_000 }).not.toContain(leaving.user._id);
    watcher.close();
  });

  it('sends one batch for many connects, not one message per connect', async () => {
    const watching = await t.createUser('njeri');
    const crowd = await Promise.all(Array.from({ length: 20 }, (_, i) => t.createUser(`crowd${i}`)));
    for (const user of crowd) await befriend(user, watching);
    const watcher = await openSocket(t.url, watching.token);
    await presenceOf(watcher, watching.user._id, true); // the watcher's own announcement goes by
    const batches = received(watcher, 'presence') as PresenceBatch[];
    const others = await Promise.all(crowd.map((user) => openSocket(t.url, user.token)));
    const announced = () => new Set(batches.flatMap((batch) => batch.changes).filter((change) => change.online).map((change) => change.userId));
    await expect.poll(() => announced().size, { timeout: 15_000 }).toBe(crowd.length);
    expect(batches.length).toBeLessThanOrEqual(2);
    others.forEach((socket) => socket.close());
    watcher.close();
  });

  it('tells only contacts: a stranger, or either side of a block, never sees a user online', async () => {
    const [watching, friend, stranger, blocker, blocked] = [
      await t.createUser('zawadi'),
      await t.createUser('rehema'),
      await t.createUser('mgeni'),
      await t.createUser('kizuizi'),
      await t.createUser('zuiliwa'),
    ];
    await befriend(friend, watching);
    await befriend(blocker, watching);
    await befriend(watching, blocked);
    await t.api('PUT', `/api/messages/blocks/${watching.user._id}`, { token: blocker.token });
    await t.api('PUT', `/api/messages/blocks/${blocked.user._id}`, { token: watching.token });
    const watcher = await openSocket(t.url, watching.token);
    const batches = received(watcher, 'presence') as PresenceBatch[];
    const hidden = [stranger, blocker, blocked];
    const hiddenSockets = await Promise.all(hidden.map((user) => openSocket(t.url, user.token)));
    // The friend connects last: once their arrival is heard, every batch that could carry the others has come.
    const friendOnline = presenceOf(watcher, friend.user._id, true);
    const friendSocket = await openSocket(t.url, friend.token);
    await friendOnline;
    const hiddenIds = hidden.map((user) => user.user._id);
    expect(batches.flatMap((batch) => batch.changes).filter((change) => hiddenIds.includes(change.userId))).toEqual([]);
    const listed = await onlineUsers(watcher);
    expect(listed).toEqual(expect.arrayContaining([watching.user._id, friend.user._id]));
    for (const id of hiddenIds) expect(listed).not.toContain(id);
    // Nor do they see the watcher: the stranger asks, and the blocked sides ask.
    for (const socket of hiddenSockets) expect(await onlineUsers(socket)).not.toContain(watching.user._id);
    [...hiddenSockets, friendSocket, watcher].forEach((socket) => socket.close());
  });

  it('a block made while both are online tells each side the other went offline; lifting it tells the truth again', async () => {
    const [blocker, blocked] = [await t.createUser('amani'), await t.createUser('juma')];
    await befriend(blocked, blocker);
    const blockerSocket = await openSocket(t.url, blocker.token);
    const blockedSocket = await openSocket(t.url, blocked.token);
    await expect.poll(() => onlineUsers(blockedSocket), { timeout: 15_000 }).toContain(blocker.user._id);

    const blockerGone = presenceOf(blockedSocket, blocker.user._id, false);
    const blockedGone = presenceOf(blockerSocket, blocked.user._id, false);
    expect((await t.api('PUT', `/api/messages/blocks/${blocked.user._id}`, { token: blocker.token })).status).toBe(200);
    await Promise.all([blockerGone, blockedGone]);
    expect(await onlineUsers(blockedSocket)).not.toContain(blocker.user._id);
    // A refusal over the socket carries its code, as over HTTP: the client offers no Retry for a block.
    const refused = await emitWithAck(blockedSocket, 'send-msg', { to: blocker.user._id, from: blocked.user._id, message: 'Are you there?' });
    expect(refused).toMatchObject({ ok: false, code: 'chat_blocked_by_them', msg: 'You cannot message this user.' });

    const blockerBack = presenceOf(blockedSocket, blocker.user._id, true);
    const blockedBack = presenceOf(blockerSocket, blocked.user._id, true);
    expect((await t.api('DELETE', `/api/messages/blocks/${blocked.user._id}`, { token: blocker.token })).status).toBe(200);
    await Promise.all([blockerBack, blockedBack]);
    [blockerSocket, blockedSocket].forEach((socket) => socket.close());
  });
});

describe('durability and scale-out', () => {
  it('keeps messages across a server restart', async () => {
    await acrossRestart(
      async (first) => {
        const x = await first.createUser('xavier');
        const y = await first.createUser('yusuf');
        await first.api('POST', '/api/messages/addmsg', { token: x.token, body: { from: x.user._id, to: y.user._id, message: 'still here?' } });
        return { x, y };
      },
      async (second, { x, y }) => {
        const res = await second.api('POST', '/api/messages/getmsg', { token: y.token, body: { from: y.user._id, to: x.user._id } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toEqual([expect.objectContaining({ fromSelf: false, message: 'still here?' })]);
      },
    );
  }, 120_000);

  it("with CHAT_SYNCHRONOUS_COMMIT=false stores messages without waiting for the WAL flush, in their own transaction only", async () => {
    const a = await t.createUser('wanjiru');
    const b = await t.createUser('baraka');
    const rows = [{ senderId: a.user._id, recipientId: b.user._id, text: 'async' }];
    const settingAfterInsert = (synchronousCommit: boolean) =>
      // The repository's transaction is a savepoint inside this one: SET LOCAL lasts to the outer commit.
      t.db.transaction(async (tx) => {
        const [row] = await createChatRepository(tx).insertMany(rows, { synchronousCommit });
        expect(row).toMatchObject({ senderId: a.user._id, recipientId: b.user._id, text: 'async' });
        const shown = (await tx.execute(sql`SHOW synchronous_commit`)) as unknown as { rows: Array<{ synchronous_commit: string }> };
        return shown.rows[0]?.synchronous_commit;
      });
    expect(await settingAfterInsert(false)).toBe('off');
    expect(await settingAfterInsert(true)).toBe('on');
    // Other statements on the pool's connections keep the server's setting.
    const after = (await t.db.execute(sql`SHOW synchronous_commit`)) as unknown as { rows: Array<{ synchronous_commit: string }> };
    expect(after.rows[0]?.synchronous_commit).toBe('on');
  });

  it('sends chat through Redis without arming a timer per Redis command', async () => {
    // node-redis's default 5 s command timeout arms AbortSignal.timeout for every publish: at chat rates those
    // timers filled the old generation and caused long GC pauses (docs/decisions/chat.md).
    const cluster = await startTwoInstancesOnRedis();
    const timers = vi.spyOn(AbortSignal, 'timeout');
    try {
      const p = await cluster.one.createUser('pili');
      const q = await cluster.two.createUser('qaboso');
      const pSocket = await openSocket(cluster.one.url, p.token);
      const qSocket = await openSocket(cluster.two.url, q.token);
      const arrivals = received(qSocket, 'msg-recieve');
      timers.mockClear();
      for (let i = 0; i < 30; i++) {
        expect((await emitWithAck(pSocket, 'send-msg', { to: q.user._id, from: p.user._id, message: `m${i}` })).ok).toBe(true);
      }
      await expect.poll(() => arrivals.length).toBe(30);
      // 30 messages are ~90 publishes; none may arm a timer.
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
      await cluster.close();
    }
  }, 120_000);

  // auto is the sharded adapter on this machine's Redis 7; classic is what Redis 6 gets.
  it.each(['auto', 'classic'])('reaches a user on another instance through Redis (SOCKET_REDIS_ADAPTER=%s)', async (adapter) => {
    const cluster = await startTwoInstancesOnRedis({ SOCKET_REDIS_ADAPTER: adapter });
    const { one, two } = cluster;
    try {
      const adapterClass = one.io.of('/').adapter.constructor.name;
      expect(adapterClass).toBe(adapter === 'classic' ? 'RedisAdapter' : 'ShardedRedisAdapter');
      const p = await one.createUser('pendo');
      const q = await two.createUser('quincy');
      const pSocket = await openSocket(one.url, p.token);
      const qSocket = await openSocket(two.url, q.token);
      const arrival = nextEvent<string>(qSocket, 'msg-recieve');
      expect((await emitWithAck(pSocket, 'send-msg', { to: q.user._id, from: p.user._id, message: 'across instances' })).ok).toBe(true);
      expect(await arrival).toBe('across instances');

      // Presence spans the instances: each lists the other's users, and hears them leave.
      expect(await onlineUsers(pSocket)).toEqual(expect.arrayContaining([p.user._id, q.user._id]));
      const qLeft = presenceOf(pSocket, q.user._id, false);
      qSocket.close();
      await qLeft;
      await expect.poll(() => onlineUsers(pSocket), { timeout: 15_000 }).not.toContain(q.user._id);
    } finally {
      await cluster.close();
    }
  }, 120_000);
});

describe('choice of Redis adapter', () => {
  const info = (version: string) => `# Server\r\nredis_version:${version}\r\nredis_mode:standalone\r\n`;

  it('takes sharded pub/sub on Redis 7 and later, classic before, and what it is told', () => {
    expect(chooseRedisAdapter('auto', info('7.0.15'))).toBe('sharded');
    expect(chooseRedisAdapter('auto', info('8.2.1'))).toBe('sharded');
    expect(chooseRedisAdapter('auto', info('6.2.14'))).toBe('classic');
    expect(chooseRedisAdapter('auto', 'no version here')).toBe('classic');
    expect(chooseRedisAdapter('classic', info('7.2.0'))).toBe('classic');
    expect(chooseRedisAdapter('sharded', info('7.2.0'))).toBe('sharded');
  });

  it('refuses sharded on a Redis without sharded pub/sub, saying what to set', () => {
    expect(() => chooseRedisAdapter('sharded', info('6.2.14'))).toThrow(/SOCKET_REDIS_ADAPTER=sharded needs Redis 7.*reports 6\. Use auto or classic/);
  });
});
