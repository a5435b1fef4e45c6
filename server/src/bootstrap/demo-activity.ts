import type { Services } from '../app.js';
import type { AuthUser } from '../modules/auth/auth.service.js';
import type { SeededDemo } from './bootstrap.js';

/**
 * A first start should not open on an empty chat and silent forums: the demo users hold free tickets to the
 * Arboretum run, talk about it in its forum and comments, and have a short conversation (the last message unread
 * for amani, so the chat shows a badge). Everything goes through the services, so it obeys the same rules as users.
 */
export async function seedDemoActivity(services: Services, { organizer, guest, eventId }: SeededDemo) {
  await services.tickets.register(guest.id, eventId, 1);
  await services.tickets.register(organizer.id, eventId, 1);
  await services.comments.add(guest, eventId, 'Did this run last month: the 5 km loop under the trees is lovely. Come early for parking.');
  const thread = await services.forums.addThread(guest, eventId, 'Carpooling from Westlands on Sunday?');
  const ask = await services.forums.addPost(guest, {
    threadId: thread._id,
    parentId: null,
    content: 'I have two free seats, leaving the Sarit Centre at 6:15. Anyone?',
  });
  await services.forums.addPost(organizer, {
    threadId: thread._id,
    parentId: ask._id,
    content: 'Great idea! Drop-off is at the State House Road gate; the water station is just inside.',
  });
  const conversation: Array<[AuthUser, AuthUser, string]> = [
    [guest, organizer, 'Habari Amani! Is the Arboretum run still on for Sunday?'],
    [organizer, guest, 'Iko sawa! 7 am at the main gate. Bring water 💧'],
    [guest, organizer, 'Asante, see you there 🏃🏾‍♀️'],
  ];
  for (const [from, to, text] of conversation) {
    // Whoever replies has read what came before.
    await services.chat.markRead(from.id, to.id);
    await services.chat.send(from.id, to.id, text);
  }
}
