import { giveTicket, insertEvent } from '../../../server/test/helpers/community.js';
import { setAvatar, type Session } from './browser.js';
import type { Harness } from './harness.js';

/** What the tests that walk every route need to exist (docs/product.md's routes with data on each). */
export interface RouteWalkData {
  /** Organiser of the two events below, holder of a ticket for the past one. */
  akinyi: Session;
  kiprono: Session;
  admin: Session;
  /** A seeded demo event. */
  demoEventId: string;
  /** Past, with tickets, a comment, a review and a forum thread with a reply. */
  pastEventId: string;
  /** Upcoming and free, Akinyi's. */
  freeEventId: string;
  threadId: string;
}

/**
 * On a harness started with the demo data: two users and the admin with avatars (so logging in lands on / and
 * /chat opens), a past event with tickets, a comment, a review and a forum thread with a reply, a free upcoming
 * event, and a conversation to open in /chat.
 */
export async function seedRouteWalkData(h: Harness): Promise<RouteWalkData> {
  const [akinyi, kiprono] = await Promise.all([h.server.createUser('akinyi'), h.server.createUser('kiprono')]);
  const admin = await h.server.loginAdmin();
  for (const session of [akinyi, kiprono, admin]) await setAvatar(h, session);
  const upcoming = await h.server.api('GET', '/api/events/upcoming');
  const demoEventId: string = upcoming.body[0]._id;

  const pastEventId = await insertEvent(h.server, { daysFromNow: -2, title: 'Kisumu Lakeside Jazz', ownerId: akinyi.user._id });
  const freeEventId = await insertEvent(h.server, { daysFromNow: 6, title: 'Nakuru Tech Meetup', ownerId: akinyi.user._id });
  await giveTicket(h.server, pastEventId, akinyi.user._id);
  await giveTicket(h.server, pastEventId, kiprono.user._id);

  const as = (session: Session) => ({ token: session.token });
  await h.server.api('POST', '/api/comments/add', { ...as(kiprono), body: { content: 'Karibu wote!', eventId: pastEventId, userId: kiprono.user._id } });
  await h.server.api('POST', '/api/reviews/add', { ...as(kiprono), body: { content: 'Great sound, great crowd.', rating: 4, eventId: pastEventId, userId: kiprono.user._id } });
  const thread = await h.server.api('POST', '/api/forums/add-thread', { ...as(akinyi), body: { title: 'Parking near the venue?', eventId: pastEventId, userId: akinyi.user._id } });
  const threadId: string = thread.body.thread._id;
  const post = await h.server.api('POST', '/api/forums/add-post', { ...as(akinyi), body: { content: 'Is there parking?', threadId, parentId: null, userId: akinyi.user._id } });
  await h.server.api('POST', '/api/forums/add-post', { ...as(kiprono), body: { content: 'Yes, behind the hall.', threadId, parentId: post.body.post._id, userId: kiprono.user._id } });
  await h.server.api('POST', '/api/messages/addmsg', { ...as(kiprono), body: { from: kiprono.user._id, to: akinyi.user._id, message: 'Habari!' } });
  return { akinyi, kiprono, admin, demoEventId, pastEventId, freeEventId, threadId };
}

/** Every route a visitor can open (docs/product.md), with the seeded data, plus a 404. */
export const visitorRoutes = ({ demoEventId, pastEventId }: RouteWalkData) => [
  '/',
  '/events',
  '/events?q=nairobi',
  `/events/${demoEventId}`,
  `/events/${pastEventId}`,
  '/login',
  '/register',
  '/contact',
  '/about',
  '/privacy',
  '/forgot-password',
  '/reset-password/not-a-real-token',
  '/verify/not-a-real-token',
  `/forums/${pastEventId}`,
  '/t/not-a-real-token',
  '/my-data/not-a-real-token',
  // The ticket widget's framed page (docs/decisions/widget.md), as a website embeds it.
  `/embed/events/${demoEventId}`,
  '/no/such/page',
];

/** The routes of a signed-in organiser (Akinyi): her profile, chat with Kiprono, her events' pages. */
export const userRoutes = ({ kiprono, freeEventId, pastEventId, threadId }: RouteWalkData) => [
  '/profile',
  '/setAvatar',
  '/chat',
  `/chat?with=${kiprono.user._id}`,
  '/plan',
  `/events/${freeEventId}`,
  `/edit-event/${freeEventId}`,
  `/forums/${pastEventId}`,
  `/forum/${threadId}`,
  `/checkin/${freeEventId}`,
  `/events/${pastEventId}/dashboard`,
  '/my-data/not-a-real-token',
  '/payouts',
];

export const ADMIN_ROUTES = ['/admin', '/admpst'];
