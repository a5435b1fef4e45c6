/**
 * Ticket and account email through the outbox (drizzle/0016, docs/decisions/scale-out.md "Mail"): a mail
 * written by one instance that could not send it is sent, once, by the next instance on the same database;
 * a failed attempt waits its back-off; a mail left `sending` by an instance that died is sent again; old
 * sent and failed rows are pruned. PostgreSQL under TEST_DB=postgres, else PGlite on disk (both restart).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/database.js';
import { newId } from '../src/db/ids.js';
import { jobName } from '../src/lib/job-queue.js';
import { insertEventRow } from './helpers/events.js';
import { createPostgresDatabase } from './helpers/test-database.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

interface OutboxRow {
  id: string;
  purpose: string;
  recipient: string;
  kind: string;
  status: string;
  attempts: number;
  has_body: boolean;
  last_error: string | null;
  retry_wait_ms: number;
}

async function outbox(db: Database): Promise<OutboxRow[]> {
  const result = (await db.execute(
    sql`SELECT id, purpose, recipient, kind, status, attempts, body IS NOT NULL AS has_body, last_error,
          (extract(epoch FROM next_attempt_at - updated_at) * 1000)::int AS retry_wait_ms
        FROM mail_outbox ORDER BY created_at, id`,
  )) as unknown as { rows: OutboxRow[] };
  return result.rows;
}

async function completedSenderJobs(db: Database): Promise<number> {
  const result = (await db.execute(sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${jobName('mail sender')} AND state = 'completed'`)) as unknown as { rows: Array<{ n: number }> };
  return Number(result.rows[0]!.n);
}

/** Retries `check` until it passes (vitest's waitFor: its last failure is the test's when time runs out). */
const eventually = <T>(check: () => Promise<T>, timeout = 30_000) => vi.waitFor(check, { timeout, interval: 100 });

/** One database two instances use one after the other: PostgreSQL in the PostgreSQL run, else PGlite on disk. */
async function sharedDatabase() {
  if (process.env.TEST_DB === 'postgres') {
    const database = await createPostgresDatabase();
    return { options: { databaseUrl: database.url }, drop: database.drop };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-mail-'));
  return { options: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** A first failed attempt waits this long: longer than the first instance takes to stop, shorter than the test. */
const RETRY_BASE_MS = 4000;

describe('mail outbox across a restart', () => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let first: TestServer | undefined;
  let second: TestServer | undefined;

  beforeAll(async () => {
    database = await sharedDatabase();
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  // Two server starts and three waits for mail of up to 30 s each: a whole scenario's budget, not a test's 30 s.
  it('sends once, from the next instance, the mail the stopped one could not send', async () => {
    first = await startTestServer({ MAIL_POLL_MS: '0', MAIL_RETRY_BASE_MS: String(RETRY_BASE_MS), JOBS_EXPIRE_SECONDS: '2' }, database.options);
    const owner = await first.createUser('mwenyeji');
    const buyer = await first.createUser('akinyi');
    const eventId = await insertEventRow(first.db, { ownerId: owner.user._id, days: 5, title: 'Lamu Dhow Race' });

    // The mail server goes away: the ticket email and a password reset are written, and their first attempt fails.
    await first.smtp.close();
    expect((await first.api('POST', `/api/events/register/${eventId}`, { token: buyer.token, body: { tickets: 2 } })).status).toBe(200);
    expect((await first.api('POST', '/api/auth/forgot-password', { body: { email: 'akinyi@example.com' } })).status).toBe(200);
    const failed = await eventually(async () => {
      const rows = (await outbox(first!.db)).filter((row) => row.status !== 'sent');
      expect(rows.map((row) => [row.kind, row.status, row.attempts])).toEqual([
        ['tickets', 'queued', 1],
        ['mail', 'queued', 1],
      ]);
      return rows;
    });
    for (const row of failed) {
      expect(row.recipient).toBe('akinyi@example.com');
      expect(row.last_error).toBeTruthy();
      expect(row.retry_wait_ms).toBeGreaterThanOrEqual(RETRY_BASE_MS - 50);
    }

    // Rows past MAIL_KEEP_DAYS: pruned by the next instance's first look.
    await first.db.execute(
      sql`INSERT INTO mail_outbox (id, purpose, recipient, status, attempts, updated_at) VALUES
          (${newId()}, 'test old sent', 'old@example.com', 'sent', 1, now() - interval '30 days'),
          (${newId()}, 'test old failed', 'old@example.com', 'failed', 8, now() - interval '30 days')`,
    );
    await first.close();
    first = undefined;

    second = await startTestServer({ MAIL_POLL_MS: '500', JOBS_EXPIRE_SECONDS: '2' }, database.options);
    const next = second;
    const ticketMail = await next.smtp.waitFor('akinyi@example.com', /Lamu Dhow Race/, 30_000);
    expect(ticketMail.attachments.filter((attachment) => attachment.contentType === 'image/png')).toHaveLength(2);
    await next.smtp.waitFor('akinyi@example.com', /Reset your Tukio password/, 30_000);

    // A mail whose instance died while sending it (left `sending` past the job expiry) is sent again.
    const inFlight = newId();
    await next.db.execute(
      sql`INSERT INTO mail_outbox (id, purpose, recipient, kind, body, status, attempts, updated_at)
          VALUES (${inFlight}, 'test in flight', 'wanjiku@example.com', 'mail', ${JSON.stringify({ to: 'wanjiku@example.com', subject: 'Sent when its sender died', text: 'Hello' })}::jsonb, 'sending', 1, now() - interval '1 hour')`,
    );
    await next.smtp.waitFor('wanjiku@example.com', /Sent when its sender died/, 30_000);

    const rows = await eventually(async () => {
      const all = await outbox(next.db);
      expect(all.filter((row) => row.status !== 'sent')).toEqual([]);
      return all;
    });
    expect(rows.map((row) => row.purpose)).not.toContain('test old sent');
    expect(rows.map((row) => row.purpose)).not.toContain('test old failed');
    // Sent rows keep no body (reset links, ticket codes).
    expect(rows.filter((row) => row.has_body)).toEqual([]);
    expect(rows.find((row) => row.kind === 'tickets')).toMatchObject({ attempts: 2 });
    expect(rows.find((row) => row.id === inFlight)).toMatchObject({ attempts: 2 });

    // Later looks send nothing again.
    const looks = await completedSenderJobs(next.db);
    await eventually(async () => expect(await completedSenderJobs(next.db)).toBeGreaterThanOrEqual(looks + 2));
    const received = next.smtp.inbox.map((mail) => `${mail.to} ${mail.subject}`).sort();
    expect(received.filter((line) => /Lamu Dhow Race|Reset your Tukio password|Sent when its sender died/.test(line))).toHaveLength(3);
  }, 120_000);
});
