import type { Services } from '../app.js';
import type { Database } from '../db/database.js';
import type { AuthUser } from '../modules/auth/index.js';
import type { SeededDemo } from './bootstrap.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A first start should not open on an empty chat and silent forums. The demo users hold free tickets to the
 * Arboretum run and talk about it in its comments and in a short conversation (the last message unread for amani,
 * so the chat shows a badge). They also went to the beach clean-up two weeks ago: forums and reviews show once an
 * event has taken place, so that is where their forum thread and review are. Everything goes through the
 * services, so it obeys the same rules as users.
 */
export async function seedDemoActivity(services: Services, db: Database, { organizer, guest, upcomingEventId, pastEvent }: SeededDemo) {
  await services.tickets.register(guest.id, upcomingEventId, 1);
  await services.comments.add(guest, upcomingEventId, 'Did this run last month: the 5 km loop under the trees is lovely. Come early for parking.');
  await chat(services, [
    [guest, organizer, 'Habari Amani! Is the Arboretum run still on for Sunday?'],
    [organizer, guest, 'Iko sawa! 7 am at the main gate. Bring water 💧'],
    [guest, organizer, 'Asante, see you there 🏃🏾‍♀️'],
  ]);

  // Registered before the clean-up took place: tickets are issued as they were then.
  const registeredAt = new Date(pastEvent.startsAt.getTime() - 7 * DAY_MS);
  await db.transaction(async (tx) => {
    for (const user of [guest, organizer]) {
      await services.tickets.issueInTransaction(tx, { eventId: pastEvent.id, userId: user.id, orderId: null, quantity: 1, now: registeredAt });
    }
  });
  const thread = await services.forums.addThread(guest, pastEvent.id, 'Turtle nests we marked: who checks on them?');
  const question = await services.forums.addPost(guest, {
    threadId: thread._id,
    parentId: null,
    content: 'We marked three nests near the Voyager end. Can we take turns walking past them in the mornings?',
  });
  await services.forums.addPost(organizer, {
    threadId: thread._id,
    parentId: question._id,
    content: 'Yes! The Local Ocean team says hatching is due in about six weeks. I will share a rota here.',
  });
  await services.reviews.add(guest, {
    eventId: pastEvent.id,
    rating: 5,
    content: 'Well organised, and we filled forty bags before the tide came in. Count me in for the next one.',
  });
}

async function chat(services: Services, messages: Array<[AuthUser, AuthUser, string]>) {
  for (const [from, to, text] of messages) {
    // Whoever replies has read what came before.
    await services.chat.markRead(from.id, to.id);
    await services.chat.send(from.id, to.id, text);
  }
}
