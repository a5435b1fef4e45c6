import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { SYSTEM_USER_ID } from '../db/ids.js';
import { startOfTodayWallClock } from '../lib/event-clock.js';
import type { Logger } from '../lib/logger.js';
import { createUsersRepository, hashPassword, toAuthUser, type AuthUser } from '../modules/auth/index.js';
import { createEventsRepository } from '../modules/events/index.js';
import { createTicketTypesRepository } from '../modules/ticket-types/index.js';
import { createObjectStore, type ObjectStore } from '../modules/uploads/index.js';
import { demoAvatar } from './demo-avatars.js';
import { writeDemoPoster } from './demo-posters.js';
import { demoEvents, type DemoEvent } from './demo-events.js';

const DEMO_PASSWORD = 'tukio-demo';
const DEMO_ADMIN_PASSWORD = 'tukio-admin';
/** Free events the demo users went to or are going to (see seedDemoActivity). */
const DEMO_UPCOMING_EVENT = 'Arboretum Sunday Run';
const DEMO_PAST_EVENT = 'Nyali Beach Clean-up';

/** The owner of imported (scraped) events; it has a random password nobody knows, so it cannot log in. */
export async function ensureSystemUser(db: Database) {
  await createUsersRepository(db).insertIfAbsent({
    id: SYSTEM_USER_ID,
    username: 'tukio-importer',
    email: 'importer@tukio.invalid',
    passwordHash: await hashPassword(randomBytes(24).toString('hex')),
    emailVerifiedAt: new Date(),
  });
}

/** ADMIN_USERNAME/EMAIL/PASSWORD create that admin, or promote the existing account with that name or email. */
export async function ensureAdmin(db: Database, admin: { username: string; email: string; password: string }, logger: Logger) {
  const repo = createUsersRepository(db);
  const existing = (await repo.findByUsername(admin.username)) ?? (await repo.findByEmail(admin.email));
  const passwordHash = await hashPassword(admin.password);
  if (existing) {
    await repo.update(existing.id, { role: 'admin', passwordHash, emailVerifiedAt: existing.emailVerifiedAt ?? new Date() });
    logger.info(`admin account "${existing.username}" is ready`);
    return;
  }
  await repo.insert({ username: admin.username, email: admin.email.toLowerCase(), passwordHash, role: 'admin', emailVerifiedAt: new Date() });
  logger.info(`admin account "${admin.username}" created`);
}

function atWallClock(dayOffset: number, time: string): Date {
  // Days count from today in Nairobi (between 21:00 and 24:00 UTC that is already tomorrow there).
  const day = startOfTodayWallClock();
  day.setUTCDate(day.getUTCDate() + dayOffset);
  return new Date(`${day.toISOString().slice(0, 10)}T${time}:00Z`);
}

/** What a first seed created, for the demo activity that needs the services (seeded after the app is built). */
export interface SeededDemo {
  organizer: AuthUser;
  guest: AuthUser;
  /** The free upcoming event the demo users hold tickets to. */
  upcomingEventId: string;
  /** The free event that took place, where their forum thread and review are. */
  pastEvent: { id: string; startsAt: Date };
}

/**
 * Seeds demo users and events once, and returns them; a second start finds the organizer, leaves everything as
 * it is and returns null. `posters`: the event image store to put an SVG poster for each demo event in
 * (drawn here, no network needed); without it events have no image.
 */
export async function seedDemo(db: Database, logger: Logger, withAdmin: boolean, posters?: ObjectStore): Promise<SeededDemo | null> {
  const repo = createUsersRepository(db);
  if (await repo.findByUsername('amani')) return null;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const verified = new Date();
  const demoUser = (username: string, avatarColors: Parameters<typeof demoAvatar>[0]) =>
    repo.insert({
      username,
      email: `${username}@tukio.local`,
      passwordHash,
      emailVerifiedAt: verified,
      avatarImage: demoAvatar(avatarColors),
      isAvatarImageSet: true,
    });
  const organizer = await demoUser('amani', { background: '#0a7d3e', skin: '#7a4a2a', hair: '#111111', shirt: '#f2a900' });
  const guest = await demoUser('wanjiku', { background: '#be185d', skin: '#a0673f', hair: '#3b2314', shirt: '#2563eb' });
  if (withAdmin && !(await repo.findByUsername('admin'))) {
    await repo.insert({
      username: 'admin',
      email: 'admin@tukio.local',
      passwordHash: await hashPassword(DEMO_ADMIN_PASSWORD),
      role: 'admin',
      emailVerifiedAt: verified,
    });
  }
  const eventsRepo = createEventsRepository(db);
  const inserted: Array<{ id: string; title: string; startsAt: Date }> = [];
  for (const event of demoEvents) {
    const startsAt = atWallClock(event.dayOffset, event.time);
    const row = await eventsRepo.insert({
        title: event.title,
        description: event.description,
        location: event.location,
        latitude: event.latitude,
        longitude: event.longitude,
        startsAt,
        isPaid: event.ticketPrice > 0,
        ticketPrice: event.ticketPrice,
        capacity: event.capacity ?? null,
        status: 'approved',
        userId: organizer.id,
        image: posters ? await writeDemoPoster(posters, { ...event, startsAt }) : null,
    });
    inserted.push(row);
    if (event.ticketTypes) await seedTicketTypes(db, row.id, event.ticketTypes);
  }
  logger.info(
    `demo data seeded: users amani and wanjiku (password "${DEMO_PASSWORD}")${withAdmin ? `, admin (password "${DEMO_ADMIN_PASSWORD}")` : ''}`,
  );
  const titled = (title: string) => {
    const event = inserted.find((row) => row.title === title);
    if (!event) throw new Error(`demo event "${title}" is missing from demo-events.ts`);
    return event;
  };
  return { organizer: toAuthUser(organizer), guest: toAuthUser(guest), upcomingEventId: titled(DEMO_UPCOMING_EVENT).id, pastEvent: titled(DEMO_PAST_EVENT) };
}

/** A demo event's kinds of ticket: the first takes over the default type the event was given. */
async function seedTicketTypes(db: Database, eventId: string, types: NonNullable<DemoEvent['ticketTypes']>) {
  const repo = createTicketTypesRepository(db);
  const [general] = await repo.listTypes(eventId);
  for (const [position, type] of types.entries()) {
    await repo.saveType(eventId, position, {
      ...(position === 0 && general ? { _id: general.id } : {}),
      name: type.name,
      price: type.price,
      capacity: type.capacity ?? null,
      salesStart: null,
      salesEnd: type.salesEndDayOffset === undefined ? null : atWallClock(type.salesEndDayOffset, '23:59'),
      maxPerOrder: type.maxPerOrder ?? 10,
    });
  }
}

/** Returns the demo data when this start seeded it (see seedDemoActivity), else null. */
export async function bootstrapDatabase(db: Database, config: AppConfig, logger: Logger): Promise<SeededDemo | null> {
  await ensureSystemUser(db);
  const lookAlikes = await createUsersRepository(db).backfillUsernameSkeletons();
  if (lookAlikes.length > 0) logger.error(`usernames that look like an older account's (left as they are): ${lookAlikes.join(', ')}`);
  if (config.admin) await ensureAdmin(db, config.admin, logger);
  return config.seedDemo ? seedDemo(db, logger, !config.admin, createObjectStore(config.objectStorage, config.dataDir)) : null;
}
