import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_USER_ID } from '../src/db/ids.js';
import { events } from '../src/db/schema.js';
import { createEventsImportService } from '../src/modules/events/events-import.service.js';
import { fetchImportSource, IMPORT_MAX_BYTES } from '../src/modules/events/import-source.js';
import { isPublicAddress } from '../src/lib/public-address.js';
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

/** A local HTTP server on `host` answering with `handler`; closed after the test. */
const feedServers: Server[] = [];
async function feedServer(host: string, handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  feedServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}
afterAll(async () => {
  for (const server of feedServers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
const FEED = JSON.stringify([{ title: 'Feed event', date: '2027-08-01T18:00', location: 'Kisumu' }]);

describe('fetching a feed by URL', () => {
  it('tells public addresses from loopback, private, link-local, CGNAT, unique-local and mapped ones', () => {
    for (const address of ['8.8.8.8', '41.90.64.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPublicAddress(address), address).toBe(true);
    const local = [
      '127.0.0.1', '127.1.2.3', '0.0.0.0', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '100.127.255.254',
      '169.254.169.254', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
      '64:ff9b::a00:1', '224.0.0.1', 'not-an-address',
    ];
    for (const address of local) expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses loopback addresses, by IP and by a name that resolves to one, unless allowed', async () => {
    const url = await feedServer('127.0.0.1', (_req, res) => res.end(FEED));
    const port = new URL(url).port;
    await expect(fetchImportSource(url)).rejects.toThrow(/127\.0\.0\.1, a private or local address/);
    await expect(fetchImportSource(`http://localhost:${port}/`)).rejects.toThrow(/private or local address/);
    await expect(fetchImportSource(`http://[::ffff:127.0.0.1]:${port}/`)).rejects.toThrow(/private or local address/);
    expect(await fetchImportSource(url, { allowedAddresses: ['127.0.0.1'] })).toBe(FEED);
  });

  it('checks every redirect: an allowed feed that redirects to 127.0.0.1 or localhost is refused', async () => {
    const target = await feedServer('127.0.0.1', (_req, res) => res.end(FEED));
    const targetPort = new URL(target).port;
    const redirecting = await feedServer('127.0.0.2', (req, res) => {
      res.writeHead(302, { location: req.url === '/by-name' ? `http://localhost:${targetPort}/` : `${target}/secret` }).end();
    });
    // 127.0.0.2 stands for an allowed feed host; the loopback address it points at is not allowed.
    await expect(fetchImportSource(`${redirecting}/by-ip`, { allowedAddresses: ['127.0.0.2'] })).rejects.toThrow(/127\.0\.0\.1, a private or local address/);
    await expect(fetchImportSource(`${redirecting}/by-name`, { allowedAddresses: ['127.0.0.2'] })).rejects.toThrow(/private or local address/);
  });

  it('stops reading a feed that never ends as soon as it passes 20 MB', async () => {
    let sent = 0;
    let onClose!: () => void;
    const closed = new Promise<void>((resolve) => (onClose = resolve));
    const forever = await feedServer('127.0.0.1', (_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return;
        }
      };
      res.on('drain', pump);
      res.on('close', onClose);
      pump();
    });
    const started = Date.now();
    await expect(fetchImportSource(forever, { allowedAddresses: ['127.0.0.1'] })).rejects.toThrow(/larger than 20 MB/);
    await closed;
    // Refused once past the cap, not after the whole body: what was sent is the cap plus socket buffers.
    expect(sent).toBeGreaterThan(IMPORT_MAX_BYTES);
    expect(sent).toBeLessThan(IMPORT_MAX_BYTES + 32 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(25_000);
  }, 60_000);

  it('npm run import:events refuses a feed that redirects to a loopback address', async () => {
    const target = await feedServer('127.0.0.1', (_req, res) => res.end(FEED));
    const redirecting = await feedServer('127.0.0.2', (_req, res) => res.writeHead(302, { location: target }).end());
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-import-'));
    try {
      const run = promisify(execFile)(process.execPath, ['--conditions=@tukio/source', '--import', 'tsx', 'src/scripts/import-events.ts', redirecting], {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'error', PORT: '0', IMPORT_ALLOWED_ADDRESSES: '127.0.0.2' },
        timeout: 60_000,
      });
      await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/import failed: .*127\.0\.0\.1, a private or local address/) });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
