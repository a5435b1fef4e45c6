import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvent } from './helpers/community.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

type Session = Awaited<ReturnType<TestServer['createUser']>>;

let t: TestServer;
let amina: Session;
let baraka: Session;
let admin: Session;
let eventId: string;

beforeAll(async () => {
  t = await startTestServer();
  [amina, baraka, admin] = await Promise.all([t.createUser('amina'), t.createUser('baraka'), t.loginAdmin()]);
  eventId = await insertEvent(t, { daysFromNow: 3 });
});
afterAll(async () => {
  await t?.close();
});

const post = (session: Session | undefined, body: Record<string, unknown>) =>
  t.api('POST', '/api/comments/add', { token: session?.token, body });

async function addComment(session: Session, content: string, event = eventId) {
  const res = await post(session, { content, eventId: event, userId: session.user._id });
  expect(res.status).toBe(201);
  return res.body.comment as { _id: string; content: string };
}

describe('GET /api/comments/event/:eventId', () => {
  it('is public and lists nothing for a new event', async () => {
    const res = await t.api('GET', `/api/comments/event/${eventId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ comments: [] });
  });

  it('answers 404 for an unknown event and 400 for a malformed id', async () => {
    const unknown = await t.api('GET', '/api/comments/event/0123456789abcdef01234567');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ msg: 'Event not found.', message: 'Event not found.' });
    const bad = await t.api('GET', '/api/comments/event/not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('eventId is not a valid id.');
  });

  it('lists oldest first with the author populated', async () => {
    const event = await insertEvent(t, { daysFromNow: -1 });
    const first = await addComment(amina, 'Kwanza!', event);
    const second = await addComment(baraka, 'Pili', event);
    const res = await t.api('GET', `/api/comments/event/${event}`);
    expect(res.body.comments.map((c: { _id: string }) => c._id)).toEqual([first._id, second._id]);
    expect(res.body.comments[1]).toEqual({
      _id: second._id,
      content: 'Pili',
      user: { _id: baraka.user._id, username: 'baraka' },
      event,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.any(String),
      hidden: false,
    });
  });
});

describe('POST /api/comments/add', () => {
  it('needs a login', async () => {
    const res = await post(undefined, { content: 'hi', eventId });
    expect(res.status).toBe(401);
  });

  it.each([
    [{ content: '' }, 'Comment field empty'],
    [{ content: '   \n ' }, 'Comment field empty'],
    [{}, 'Comment field empty'],
    [{ content: 'x'.repeat(2001) }, 'Comment must be at most 2000 characters.'],
    [{ content: 'a\u0000b' }, 'Comment must not contain null characters.'],
    [{ content: 42 }, 'Comment must be text.'],
    [{ content: 'hi', eventId: 'nope' }, 'eventId is not a valid id.'],
    [{ content: 'hi', eventId: undefined }, 'eventId is required.'],
  ])('refuses %j with 400 and a message naming the field', async (override, msg) => {
    const res = await post(amina, { eventId, ...override });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, msg, message: msg });
  });

  it('refuses a userId that is not the caller (403) and an unknown event (404)', async () => {
    const other = await post(amina, { content: 'hi', eventId, userId: baraka.user._id });
    expect(other.status).toBe(403);
    expect(other.body.status).toBe(false);
    const unknown = await post(amina, { content: 'hi', eventId: '0123456789abcdef01234567' });
    expect(unknown.status).toBe(404);
  });

  it('stores the text exactly as typed (ends trimmed), HTML and script included, and returns it verbatim', async () => {
    const typed = '<script>alert("x")</script> <b>bold</b> & \'quotes\' — habari 🎉\n  second line';
    const res = await post(amina, { content: `  ${typed}  `, eventId, userId: amina.user._id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: true,
      comment: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        content: typed,
        user: { _id: amina.user._id, username: 'amina' },
        event: eventId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        hidden: false,
      },
    });
    const list = await t.api('GET', `/api/comments/event/${eventId}`);
    expect(list.body.comments.at(-1).content).toBe(typed);
  });

  it('accepts a body without userId: the author is the token user', async () => {
    const res = await post(baraka, { content: 'bila userId', eventId });
    expect(res.status).toBe(201);
    expect(res.body.comment.user).toEqual({ _id: baraka.user._id, username: 'baraka' });
  });
});

describe('editing comments', () => {
  it('lets the author edit through PUT /add/:id {text} and PUT /:id {content}', async () => {
    const comment = await addComment(amina, 'original');
    const viaText = await t.api('PUT', `/api/comments/add/${comment._id}`, { token: amina.token, body: { text: '  edited <i>once</i> ' } });
    expect(viaText.status).toBe(200);
    expect(viaText.body).toMatchObject({ status: true, comment: { _id: comment._id, content: 'edited <i>once</i>', user: { _id: amina.user._id, username: 'amina' } } });
    const viaContent = await t.api('PUT', `/api/comments/${comment._id}`, { token: amina.token, body: { content: 'edited twice' } });
    expect(viaContent.status).toBe(200);
    expect(viaContent.body.comment.content).toBe('edited twice');
  });

  it('refuses other users, admins, visitors, empty text and unknown ids', async () => {
    const comment = await addComment(amina, 'mine');
    const other = await t.api('PUT', `/api/comments/add/${comment._id}`, { token: baraka.token, body: { text: 'hijack' } });
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ status: false, msg: 'You can only edit your own comments.' });
    expect((await t.api('PUT', `/api/comments/${comment._id}`, { token: admin.token, body: { content: 'admin words' } })).status).toBe(403);
    expect((await t.api('PUT', `/api/comments/${comment._id}`, { body: { content: 'anon' } })).status).toBe(401);
    const empty = await t.api('PUT', `/api/comments/add/${comment._id}`, { token: amina.token, body: { text: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('Comment field empty');
    const long = await t.api('PUT', `/api/comments/${comment._id}`, { token: amina.token, body: { content: 'y'.repeat(2001) } });
    expect(long.body.msg).toBe('Comment must be at most 2000 characters.');
    expect((await t.api('PUT', '/api/comments/0123456789abcdef01234567', { token: amina.token, body: { content: 'x' } })).status).toBe(404);
    const bad = await t.api('PUT', '/api/comments/add/xyz', { token: amina.token, body: { text: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('commentId is not a valid id.');
    const list = await t.api('GET', `/api/comments/event/${eventId}`);
    expect(list.body.comments.find((c: { _id: string }) => c._id === comment._id).content).toBe('mine');
  });
});

describe('DELETE /api/comments/:commentId/:userId', () => {
  it('ignores the path user id: another user naming the author is refused', async () => {
    const comment = await addComment(amina, 'do not delete me');
    const res = await t.api('DELETE', `/api/comments/${comment._id}/${amina.user._id}`, { token: baraka.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: false, msg: 'You can only delete your own comments.' });
    expect((await t.api('DELETE', `/api/comments/${comment._id}/${amina.user._id}`)).status).toBe(401);
  });

  it('lets the author delete (whatever the path says) and admins delete anyone’s', async () => {
    const mine = await addComment(amina, 'mine to delete');
    const res = await t.api('DELETE', `/api/comments/${mine._id}/${baraka.user._id}`, { token: amina.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });

    const theirs = await addComment(baraka, 'spam');
    const byAdmin = await t.api('DELETE', `/api/comments/${theirs._id}/${admin.user._id}`, { token: admin.token });
    expect(byAdmin.body).toEqual({ status: true });

    const ids = (await t.api('GET', `/api/comments/event/${eventId}`)).body.comments.map((c: { _id: string }) => c._id);
    expect(ids).not.toContain(mine._id);
    expect(ids).not.toContain(theirs._id);
    expect((await t.api('DELETE', `/api/comments/${mine._id}/${amina.user._id}`, { token: amina.token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/comments/bad-id/${amina.user._id}`, { token: amina.token })).status).toBe(400);
  });
});
