import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posterSvg } from '../src/bootstrap/demo-posters.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/** What a newcomer's first `npm start` shows: the demo is seeded once, through the same rules as users. */
let demo: TestServer;
beforeAll(async () => {
  demo = await startTestServer({ SEED_DEMO: 'true' });
});
afterAll(async () => {
  await demo?.close();
});

const demoLogin = (username: string) => demo.login(username, 'tukio-demo');

async function approvedEvent(title: string) {
  const list = await demo.api('GET', '/api/events/admin/approved');
  const event = (list.body as Array<{ _id: string; title: string; date: string; registeredUsers: string[] }>).find((e) => e.title === title);
  if (!event) throw new Error(`no demo event "${title}"`);
  return event;
}

describe('demo data', () => {
  it('draws an escaped SVG poster for each demo event and serves it from /uploads', async () => {
    const svg = posterSvg({ title: 'Rock & <Roll> "Night"', location: 'KICC, Nairobi', startsAt: new Date('2027-01-01T18:00:00Z'), ticketPrice: 1500 });
    expect(svg).toContain('Rock &#38; &#60;Roll&#62;');
    expect(svg).not.toContain('<Roll>');
    expect(svg).toContain('KICC, Nairobi');
    // The date in numerals, no English word on a Kiswahili page.
    expect(svg).toContain('>01/01/2027 · 18:00<');
    expect(svg).not.toContain('Ksh.');

    const list = await demo.api('GET', '/api/events/admin/approved');
    expect(list.body.length).toBeGreaterThan(5);
    for (const event of list.body as { image: string }[]) expect(event.image).toMatch(new RegExp(`^${demo.config.publicUrl}/uploads/[0-9a-f]{24}\\.svg$`));
    const poster = await fetch(`${demo.url}${new URL(list.body[0].image).pathname}`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(poster.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('gives the demo users avatars, so each is in the other’s chat contacts, and a conversation with one unread message', async () => {
    const amani = await demoLogin('amani');
    const wanjiku = await demoLogin('wanjiku');
    expect(amani.user).toMatchObject({ isAvatarImageSet: true });
    const contacts = await demo.api('GET', `/api/auth/allusers/${amani.user._id}`, { token: amani.token });
    expect(contacts.status).toBe(200);
    expect(contacts.body.map((c: { username: string }) => c.username)).toContain('wanjiku');
    const avatar = contacts.body.find((c: { username: string }) => c.username === 'wanjiku').avatarImage as string;
    // The stored form passes the avatar route's own validation (a base64 SVG without script).
    expect(Buffer.from(avatar, 'base64').toString()).toMatch(/^<svg[\s\S]*<\/svg>$/);
    const avatarCheck = await demo.api('POST', `/api/auth/setavatar/${wanjiku.user._id}`, { token: wanjiku.token, body: { image: avatar } });
    expect(avatarCheck.status).toBe(200);

    const conversation = await demo.api('POST', '/api/messages/getmsg', { token: amani.token, body: { from: amani.user._id, to: wanjiku.user._id } });
    expect(conversation.body.map((m: { fromSelf: boolean; message: string }) => [m.fromSelf, m.message])).toEqual([
      [false, 'Habari Amani! Is the Arboretum run still on for Sunday?'],
      [true, 'Iko sawa! 7 am at the main gate. Bring water 💧'],
      [false, 'Asante, see you there 🏃🏾‍♀️'],
    ]);
    // Each reply read what came before it: only wanjiku's last message waits for amani.
    expect((await demo.api('GET', '/api/messages/unread', { token: amani.token })).body).toEqual({ [wanjiku.user._id]: 1 });
    expect((await demo.api('GET', '/api/messages/unread', { token: wanjiku.token })).body).toEqual({});
  });

  it('has wanjiku holding a ticket to the Arboretum run and commenting on it', async () => {
    const wanjiku = await demoLogin('wanjiku');
    const run = await approvedEvent('Arboretum Sunday Run');
    expect(run.registeredUsers).toEqual([wanjiku.user._id]);
    const tickets = await demo.api('GET', '/api/tickets/mine', { token: wanjiku.token });
    expect(JSON.stringify(tickets.body)).toContain(run._id);

    const comments = await demo.api('GET', `/api/comments/event/${run._id}`);
    expect(comments.body.comments).toEqual([
      expect.objectContaining({ content: expect.stringMatching(/5 km loop/), user: expect.objectContaining({ username: 'wanjiku' }) }),
    ]);
  });

  it('has a forum thread with a reply and a review on the clean-up that took place, where the event page shows them', async () => {
    const wanjiku = await demoLogin('wanjiku');
    const amani = await demoLogin('amani');
    const cleanUp = await approvedEvent('Nyali Beach Clean-up');
    expect(new Date(cleanUp.date).getTime()).toBeLessThan(Date.now());
    expect(cleanUp.registeredUsers.sort()).toEqual([wanjiku.user._id, amani.user._id].sort());

    const threads = await demo.api('GET', `/api/forums/threads/${cleanUp._id}`, { token: wanjiku.token });
    expect(threads.status).toBe(200);
    expect(threads.body.thread).toEqual([expect.objectContaining({ title: 'Turtle nests we marked: who checks on them?' })]);
    const thread = await demo.api('GET', `/api/forums/thread/${threads.body.thread[0]._id}`, { token: wanjiku.token });
    const [question] = thread.body.thread.posts as Array<{ content: string; user: { username: string }; replies: Array<{ content: string; user: { username: string } }> }>;
    expect(question).toMatchObject({ content: expect.stringMatching(/three nests/), user: { username: 'wanjiku' } });
    expect(question!.replies).toEqual([expect.objectContaining({ content: expect.stringMatching(/share a rota/), user: expect.objectContaining({ username: 'amani' }) })]);

    const reviews = await demo.api('GET', `/api/reviews/event/${cleanUp._id}`);
    expect(reviews.body.reviews).toEqual([expect.objectContaining({ rating: 5, user: expect.objectContaining({ username: 'wanjiku' }) })]);
  });

  it('seeds once: a restart on the same data adds nothing', async () => {
    const dataDir = demo.config.dataDir;
    const before = await demo.api('GET', '/api/events/admin/approved');
    await demo.close();
    demo = await startTestServer({ SEED_DEMO: 'true' }, { dataDir });
    const after = await demo.api('GET', '/api/events/admin/approved');
    expect(after.body.length).toBe(before.body.length);
    const amani = await demoLogin('amani');
    const wanjiku = await demoLogin('wanjiku');
    const conversation = await demo.api('POST', '/api/messages/getmsg', { token: amani.token, body: { from: amani.user._id, to: wanjiku.user._id } });
    expect(conversation.body).toHaveLength(3);
  });
});
