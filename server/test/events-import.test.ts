import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_USER_ID } from '../src/db/ids.js';
import { events } from '../src/db/schema.js';
import { createEventsImportService } from '../src/modules/events/events-import.service.js';
import { parseIcsEvents, parseImportDate, parseJsonEvents } from '../src/modules/events/import-formats.js';
import { createGeocodingService } from '../src/modules/geocoding/geocoding.service.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sample = (name: string) => readFileSync(path.join(serverDir, 'samples', name), 'utf8');

let t: TestServer;
let importer: ReturnType<typeof createEventsImportService>;

beforeAll(async () => {
  t = await startTestServer();
  importer = createEventsImportService({ db: t.db, geocoding: createGeocodingService(), publicUrl: t.config.publicUrl });
});
afterAll(async () => {
  await t?.close();
});

const importedByTitle = async (title: string) => {
  const [row] = await t.db.select().from(events).where(eq(events.title, title));
  return row;
};

describe('iCalendar reading', () => {
  it('unfolds lines, unescapes text and reads Nairobi, UTC, date-only DTSTART, GEO, URL and IMAGE', () => {
    const [sauti, karura, design] = parseIcsEvents(sample('nairobi-events.ics'));
    expect(sauti).toMatchObject({
      title: 'Sauti Sol Tribute Night',
      description:
        'A night of Kenyan afro-pop classics with a live band, guest vocalists and a dance floor.\nDoors open one hour before.\n\nMore information: https://tukio.example/sauti-sol-tribute',
      location: 'Kenyatta International Convention Centre (KICC), Nairobi',
      latitude: -1.2887,
      longitude: 36.8233,
    });
    // TZID=Africa/Nairobi 19:00 stays 19:00 wall clock.
    expect(sauti?.date?.toISOString()).toBe('2027-02-13T19:00:00.000Z');
    // 03:30 UTC is 06:30 in Nairobi.
    expect(karura?.date?.toISOString()).toBe('2027-03-06T06:30:00.000Z');
    expect(karura?.description).toBe('5 km and 10 km trail loops through Karura Forest. Chai at the finish line.');
    expect(design?.date?.toISOString()).toBe('2027-03-20T00:00:00.000Z');
    expect(design?.image).toBe('https://images.tukio.example/design-week.jpg');
  });

  it('converts other time zones to Nairobi time and refuses non-calendars', () => {
    const ics = ['BEGIN:VCALENDAR', 'BEGIN:VEVENT', 'SUMMARY:London', 'DTSTART;TZID=Europe/London:20270701T180000', 'LOCATION:Nairobi', 'END:VEVENT', 'END:VCALENDAR'].join('\n');
    // 18:00 BST (UTC+1) is 20:00 in Nairobi.
    expect(parseIcsEvents(ics)[0]?.date?.toISOString()).toBe('2027-07-01T20:00:00.000Z');
    expect(() => parseIcsEvents('hello')).toThrow(/not an iCalendar/);
  });

  it('reads JSON dates as wall clock, or converts instants to Nairobi time', () => {
    expect(parseImportDate('2027-05-01T18:00')?.toISOString()).toBe('2027-05-01T18:00:00.000Z');
    expect(parseImportDate('2027-05-01T15:00:00Z')?.toISOString()).toBe('2027-05-01T18:00:00.000Z');
    expect(parseImportDate('2027-05-01T18:00:00+03:00')?.toISOString()).toBe('2027-05-01T18:00:00.000Z');
    expect(parseImportDate('2027-02-30T10:00')).toBeUndefined();
    const [first] = parseJsonEvents(JSON.stringify({ events: [{ title: 'x', startDate: '2027-01-01', ticketPrice: 'Ksh. 1,500' }] }));
    expect(first).toMatchObject({ title: 'x', ticketPrice: 1500 });
    expect(() => parseJsonEvents('{"nope":1}')).toThrow(/list of events/);
  });
});

describe('importing', () => {
  it('imports the JSON sample as pending system-user events, then skips all of it the second time', async () => {
    const first = await importer.importText(sample('nairobi-events.json'), 'nairobi-events.json');
    expect(first).toEqual({ created: 3, skipped: 0, invalid: 0, problems: [] });
    const second = await importer.importText(sample('nairobi-events.json'), 'nairobi-events.json');
    expect(second).toEqual({ created: 0, skipped: 3, invalid: 0, problems: [] });

    const sevens = await importedByTitle('Kasarani Rugby Sevens Fan Day');
    expect(sevens).toMatchObject({ status: 'pending', userId: SYSTEM_USER_ID, isPaid: true, ticketPrice: 500, image: 'https://images.tukio.example/sevens.jpg' });
    expect(sevens?.startsAt.toISOString()).toBe('2027-02-27T10:00:00.000Z');
    // Geocoded offline from "Kasarani".
    expect(sevens?.latitude).toBeCloseTo(-1.2216, 3);
    const food = await importedByTitle('Uhuru Gardens Food Festival');
    expect(food).toMatchObject({ ticketPrice: 1000, isPaid: true });
    expect(food?.startsAt.toISOString()).toBe('2027-03-13T12:00:00.000Z');
    expect(await importedByTitle('Westlands Startup Pitch Night')).toMatchObject({ latitude: -1.261, longitude: 36.802, isPaid: false });

    // Imported events wait for an admin and then belong to the scraped-events page.
    const admin = await t.loginAdmin();
    const pending = await t.api('GET', '/api/events/admin/pending', { token: admin.token });
    expect(pending.body.filter((e: { user: string }) => e.user === SYSTEM_USER_ID)).toHaveLength(3);
  });

  it('imports the ICS sample once', async () => {
    expect(await importer.importText(sample('nairobi-events.ics'), 'nairobi-events.ics')).toMatchObject({ created: 3, skipped: 0, invalid: 0 });
    expect(await importer.importText(sample('nairobi-events.ics'), 'calendar')).toMatchObject({ created: 0, skipped: 3, invalid: 0 });
    expect(await importedByTitle('Karura Forest Sunrise Run')).toMatchObject({ status: 'pending', userId: SYSTEM_USER_ID, ticketPrice: 0 });
  });

  it('treats title, date and location case- and space-insensitively as the same event, and reports invalid records', async () => {
    const records = [
      { title: 'Dedupe Me', date: '2027-06-01T10:00', location: 'Nakuru' },
      { title: '  dedupe   me ', date: '2027-06-01T10:00', location: 'NAKURU' },
      { title: 'Dedupe Me', date: '2027-06-02T10:00', location: 'Nakuru' },
      { date: '2027-06-01T10:00', location: 'Nakuru' },
      { title: 'No date', location: 'Nakuru' },
      { title: 'Bad date', date: 'soon', location: 'Nakuru' },
      { title: 'No place', date: '2027-06-01T10:00' },
      { title: 'x'.repeat(300), date: '2027-06-01T10:00', location: 'Nakuru', image: 'http://insecure.example/a.png' },
    ];
    const result = await importer.importText(JSON.stringify(records));
    expect(result).toMatchObject({ created: 3, skipped: 1, invalid: 4 });
    expect(result.problems.map((p) => p.index)).toEqual([3, 4, 5, 6]);
    const [long] = await t.db.select().from(events).where(eq(events.location, 'Nakuru'));
    expect(long).toBeDefined();
    const all = await t.db.select({ title: events.title, image: events.image }).from(events).where(eq(events.location, 'Nakuru'));
    const cut = all.find((row) => row.title.startsWith('xxx'));
    expect(cut?.title).toHaveLength(120);
    expect(cut?.image).toBeNull();
  });
});

describe('npm run import:events', () => {
  it('imports a file from the command line with the server’s database settings and prints the counts', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-import-'));
    try {
      const file = path.join(dataDir, 'events.json');
      writeFileSync(file, JSON.stringify([{ title: 'CLI event', date: '2027-08-01T18:00', location: 'Kisumu' }]));
      const run = () =>
        promisify(execFile)(process.execPath, ['--conditions=@tukio/source', '--import', 'tsx', 'src/scripts/import-events.ts', file], {
          cwd: serverDir,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'error', PORT: '0' },
          timeout: 60_000,
        });
      expect((await run()).stdout).toContain('1 created, 0 skipped (already imported), 0 invalid');
      expect((await run()).stdout).toContain('0 created, 1 skipped (already imported), 0 invalid');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
