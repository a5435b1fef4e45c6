import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { startOfTodayWallClock } from '../lib/event-clock.js';
import type { Logger } from '../lib/logger.js';
import {
  backfillUsernameSkeletons,
  createVerifiedAccount,
  ensureAdminAccount,
  ensureSystemAccount,
  hashPassword,
  usernameTaken,
  type AuthUser,
} from '../modules/auth/index.js';
import { seedEvent } from '../modules/events/index.js';
import { createFeesService } from '../modules/fees/index.js';
import { seedTicketTypes } from '../modules/ticket-types/index.js';
import { createObjectStore, type ObjectStore } from '../modules/uploads/index.js';
import { demoAvatar } from './demo-avatars.js';
import { writeDemoPoster } from './demo-posters.js';
import { demoEvents, type DemoEvent } from './demo-events.js';

const DEMO_PASSWORD = 'tukio-demo';
const DEMO_ADMIN_PASSWORD = 'tukio-admin';
/** Free events the demo users went to or are going to (see seedDemoActivity). */
const DEMO_UPCOMING_EVENT = 'Arboretum Sunday Run';
const DEMO_PAST_EVENT = 'Nyali Beach Clean-up';

/** ADMIN_USERNAME/EMAIL/PASSWORD create that admin, or promote the existing account with that name or email. */
export async function ensureAdmin(db: Database, admin: { username: string; email: string; password: string }, logger: Logger, passwordHashCost?: number) {
  const { username, outcome } = await ensureAdminAccount(db, admin, passwordHashCost);
  logger.info(outcome === 'promoted' ? `admin account "${username}" is ready` : `admin account "${username}" created`);
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
  if (await usernameTaken(db, 'amani')) return null;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const verified = new Date();
  const demoUser = (username: string, avatarColors: Parameters<typeof demoAvatar>[0]) =>
    createVerifiedAccount(db, { username, email: `${username}@tukio.local`, passwordHash, emailVerifiedAt: verified, avatarImage: demoAvatar(avatarColors) });
  const organizer = await demoUser('amani', { background: '#0a7d3e', skin: '#7a4a2a', hair: '#111111', shirt: '#f2a900' });
  const guest = await demoUser('wanjiku', { background: '#be185d', skin: '#a0673f', hair: '#3b2314', shirt: '#2563eb' });
  if (withAdmin && !(await usernameTaken(db, 'admin'))) {
    await createVerifiedAccount(db, {
      username: 'admin',
      email: 'admin@tukio.local',
      passwordHash: await hashPassword(DEMO_ADMIN_PASSWORD),
      role: 'admin',
      emailVerifiedAt: verified,
    });
  }
  const inserted: Array<{ id: string; title: string; startsAt: Date }> = [];
  for (const event of demoEvents) {
    const startsAt = atWallClock(event.dayOffset, event.time);
    const row = await seedEvent(db, {
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
    if (event.ticketTypes) await seedTicketTypes(db, row.id, demoTicketTypes(event.ticketTypes));
  }
  logger.info(
    `demo data seeded: users amani and wanjiku (password "${DEMO_PASSWORD}")${withAdmin ? `, admin (password "${DEMO_ADMIN_PASSWORD}")` : ''}`,
  );
  const titled = (title: string) => {
    const event = inserted.find((row) => row.title === title);
    if (!event) throw new Error(`demo event "${title}" is missing from demo-events.ts`);
    return event;
  };
  return { organizer, guest, upcomingEventId: titled(DEMO_UPCOMING_EVENT).id, pastEvent: titled(DEMO_PAST_EVENT) };
}

/** A demo event's kinds of ticket, as ticket-types stores them (the first takes over the event's default type). */
const demoTicketTypes = (types: NonNullable<DemoEvent['ticketTypes']>) =>
  types.map((type) => ({
    name: type.name,
    price: type.price,
    capacity: type.capacity ?? null,
    salesStart: null,
    salesEnd: type.salesEndDayOffset === undefined ? null : atWallClock(type.salesEndDayOffset, '23:59'),
    maxPerOrder: type.maxPerOrder ?? 10,
  }));

/** Returns the demo data when this start seeded it (see seedDemoActivity), else null. */
export async function bootstrapDatabase(db: Database, config: AppConfig, logger: Logger): Promise<SeededDemo | null> {
  await ensureSystemAccount(db, config.passwordHashCost);
  const lookAlikes = await backfillUsernameSkeletons(db);
  if (lookAlikes.length > 0) logger.error(`usernames that look like an older account's (left as they are): ${lookAlikes.join(', ')}`);
  if (config.admin) await ensureAdmin(db, config.admin, logger, config.passwordHashCost);
  // A fresh install starts with the configured platform fee (docs/decisions/fees.md); later starts keep the admins' settings.
  await createFeesService({ db }).ensureInitialFee(config.fees.initial);
  return config.seedDemo ? seedDemo(db, logger, !config.admin, createObjectStore(config.objectStorage, config.dataDir)) : null;
}
