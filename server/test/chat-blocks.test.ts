import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatBlocks } from '../src/db/schema.js';
import { emitWithAck, socketTracker } from './helpers/chat-sockets.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

type Session = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
const sockets = socketTracker();
let serial = 0;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  sockets.closeAll();
  await t?.close();
});

const person = (name: string) => {
  serial += 1;
  return t.createUser(`${name}${serial}${Math.random().toString(36).slice(2, 6)}`);
};
const send = (from: Session, to: Session, message: string) =>
  t.api('POST', '/api/messages/addmsg', { token: from.token, body: { from: from.user._id, to: to.user._id, message } });
const contactsOf = async (session: Session) =>
  ((await t.api('GET', `/api/auth/allusers/${session.user._id}`, { token: session.token })).body as Array<{ _id: string }>).map((c) => c._id);
const block = (session: Session | undefined, userId: string) => t.api('PUT', `/api/messages/blocks/${userId}`, { token: session?.token });
const unblock = (session: Session, userId: string) => t.api('DELETE', `/api/messages/blocks/${userId}`, { token: session.token });

describe('blocking in chat', () => {
  it('stops messages both ways, drops the blocker from the blocked one’s contacts, and unblocking undoes it', async () => {
    const [wanjiku, otieno] = await Promise.all([person('wanjiku'), person('otieno')]);
    expect((await send(otieno, wanjiku, 'hello')).status).toBe(200);
    expect(await contactsOf(otieno)).toContain(wanjiku.user._id);

    const blocked = await block(wanjiku, otieno.user._id);
    expect(blocked.status).toBe(200);
    expect(blocked.body).toEqual({ status: true, blocked: true });
    // Twice is harmless.
    expect((await block(wanjiku, otieno.user._id)).status).toBe(200);
    expect((await t.api('GET', '/api/messages/blocks', { token: wanjiku.token })).body.blocked).toEqual([
      { _id: otieno.user._id, username: otieno.user.username, blockedAt: expect.any(String) },
    ]);

    const refused = await send(otieno, wanjiku, 'why?');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('You cannot message this user.');
    const socket = await sockets.open(t.url, otieno.token);
    expect(await emitWithAck(socket, 'send-msg', { from: otieno.user._id, to: wanjiku.user._id, message: 'over the socket' })).toMatchObject({
      ok: false,
      msg: 'You cannot message this user.',
    });
    const mine = await send(wanjiku, otieno, 'one last word');
    expect(mine.status).toBe(403);
    expect(mine.body.msg).toBe('You blocked this user. Unblock them to send a message.');

    expect(await contactsOf(otieno)).not.toContain(wanjiku.user._id);
    // The blocker still sees the blocked one, to unblock from their profile.
    expect(await contactsOf(wanjiku)).toContain(otieno.user._id);
    // The old conversation stays readable for both.
    const history = await t.api('POST', '/api/messages/getmsg', { token: otieno.token, body: { from: otieno.user._id, to: wanjiku.user._id } });
    expect(history.body.map((m: { message: string }) => m.message)).toEqual(['hello']);

    expect((await unblock(wanjiku, otieno.user._id)).body).toEqual({ status: true, blocked: false });
    expect((await send(otieno, wanjiku, 'friends again')).status).toBe(200);
    expect(await contactsOf(otieno)).toContain(wanjiku.user._id);
    expect((await t.api('GET', '/api/messages/blocks', { token: wanjiku.token })).body.blocked).toEqual([]);
  });

  it('judges messages sent at the same moment each by its own pair, whichever way the block goes', async () => {
    const [amina, baraka, chebet, daudi] = await Promise.all([person('amina'), person('baraka'), person('chebet'), person('daudi')]);
    expect((await block(amina, baraka.user._id)).status).toBe(200);
    expect((await block(daudi, chebet.user._id)).status).toBe(200);
    // Checked together under load (one query for the messages of the moment): each answer must be its own.
    const expected = [
      [baraka, amina, 403, 'You cannot message this user.'],
      [amina, baraka, 403, 'You blocked this user. Unblock them to send a message.'],
      [chebet, daudi, 403, 'You cannot message this user.'],
      [daudi, chebet, 403, 'You blocked this user. Unblock them to send a message.'],
      [amina, chebet, 200, undefined],
      [chebet, amina, 200, undefined],
      [baraka, daudi, 200, undefined],
      [daudi, baraka, 200, undefined],
    ] as const;
    const rounds = 4;
    const answers = await Promise.all(
      Array.from({ length: rounds }, (_, round) => expected.map(([from, to], index) => send(from, to, `round ${round} message ${index}`))).flat(),
    );
    answers.forEach((answer, index) => {
      const [from, to, status, msg] = expected[index % expected.length]!;
      expect(answer.status, `${from.user.username} → ${to.user.username}`).toBe(status);
      if (msg) expect(answer.body.msg).toBe(msg);
    });
    // Requests are served in turn, so those above may not have shared a query; sends made in the same instant do.
    const twice = [...expected, ...expected];
    const together = await Promise.all(
      twice.map(([from, to], index) =>
        t.services.chat.send(from.user._id, to.user._id, `together ${index}`).then(
          () => [200, undefined],
          (error: { status: number; message: string }) => [error.status, error.message],
        ),
      ),
    );
    expect(together).toEqual(twice.map(([, , status, msg]) => [status, msg]));
    const stored = await t.api('POST', '/api/messages/getmsg', { token: amina.token, body: { from: amina.user._id, to: chebet.user._id } });
    expect(stored.body).toHaveLength(2 * rounds + 4);
    const refused = await t.api('POST', '/api/messages/getmsg', { token: amina.token, body: { from: amina.user._id, to: baraka.user._id } });
    expect(refused.body).toEqual([]);
  });

  it('refuses blocking yourself, unknown users and visitors, storing nothing', async () => {
    const kamau = await person('kamau');
    const self = await block(kamau, kamau.user._id);
    expect(self.status).toBe(400);
    expect(self.body.msg).toBe('You cannot block yourself.');
    expect((await block(kamau, '0123456789abcdef01234567')).status).toBe(404);
    expect((await block(kamau, 'not-an-id')).status).toBe(400);
    expect((await block(undefined, kamau.user._id)).status).toBe(401);
    expect(await t.db.select().from(chatBlocks).where(and(eq(chatBlocks.blockerId, kamau.user._id)))).toEqual([]);
  });
});
