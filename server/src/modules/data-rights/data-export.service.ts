import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Language } from '../../lib/i18n.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import { withheldColumns, type PersonalDataMap, type PersonalDataTable, type SubjectMatch } from '../../lib/personal-data.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import type { MailOutbox } from '../mail/index.js';
import { createDataExportsRepository, type DataExportRow, type ExportedRow } from './data-exports.repository.js';
import { buildExportArchive, type ExportedTable } from './export-archive.js';
import { buildDataExportMail } from './data-export-mail.js';

const HOUR = 60 * 60 * 1000;
/** One request per user per this long (the export reads every table the map names: not a button to hammer). */
export const DATA_EXPORT_INTERVAL_MS = 24 * HOUR;
/** The emailed link works once, for this long after the ZIP is made. */
export const DATA_EXPORT_LINK_MS = 24 * HOUR;
/** Rows of used or expired exports are kept this long (they answer "already used"), then deleted. */
const KEEP_SPENT_MS = 30 * 24 * HOUR;
/** A request still without its ZIP this long after it was made lost its job: the sweep queues it again. */
const LOST_JOB_MS = 15 * 60 * 1000;
const JOB_NAME = 'data export';

export interface DataExportDeps {
  db: Database;
  /** Every module's personal tables (src/personal-data-map.ts). */
  map: PersonalDataMap;
  /** Who the ZIP is mailed to, in which language (auth's account, through app.ts). */
  accounts: { getUser(id: string): Promise<{ username: string; email: string; language: Language }> };
  mail: Pick<MailOutbox, 'send' | 'soon'>;
  logger: Logger;
  publicUrl: string;
  /** Exports are built by a job here (any instance); unset: built in this process right after the request. */
  jobs?: JobQueue | undefined;
  /** How often expired ZIPs are removed (a job per period across instances); an hour unless a test says. */
  sweepMs?: number;
}

export type DataExportState = 'none' | 'requested' | 'ready' | 'downloaded' | 'expired';

export interface DataExportStatus {
  state: DataExportState;
  requestedAt: string | null;
  /** When the emailed link stops working (ready exports). */
  expiresAt: string | null;
  /** From when a new request is accepted; null: now. */
  nextRequestAt: string | null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const nairobiTime = new Intl.DateTimeFormat('en-KE', { timeZone: 'Africa/Nairobi', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false });

/**
 * "Download my data" (docs/decisions/data-rights.md): a signed-in user asks (once a day); a job reads every row
 * the personal-data map says is about them, zips it as JSON and CSV, keeps the ZIP and mails a link that works
 * once, for 24 hours. A sweep removes ZIPs nobody downloaded in time.
 */
export function createDataExportService(deps: DataExportDeps) {
  const { db, map, logger } = deps;
  const repo = createDataExportsRepository(db);

  function statusOf(row: DataExportRow | undefined, now: Date): DataExportStatus {
    if (!row) return { state: 'none', requestedAt: null, expiresAt: null, nextRequestAt: null };
    const next = new Date(row.createdAt.getTime() + DATA_EXPORT_INTERVAL_MS);
    const expired = row.status === 'ready' && row.expiresAt !== null && row.expiresAt <= now;
    return {
      state: expired ? 'expired' : row.status,
      requestedAt: row.createdAt.toISOString(),
      expiresAt: row.status === 'ready' ? (row.expiresAt?.toISOString() ?? null) : null,
      nextRequestAt: next > now ? next.toISOString() : null,
    };
  }

  function queueBuild(exportId: string) {
    if (deps.jobs) return deps.jobs.send(JOB_NAME, { exportId });
    setImmediate(() => void build(exportId).catch((error: unknown) => logger.error('data export failed', error)));
    return Promise.resolve();
  }

  /** The user's rows of every mapped table: first by their id, then by the emails and phones those rows hold. */
  async function collect(userId: string): Promise<ExportedTable[]> {
    const exported = map.tables.filter((table) => Object.keys(table.subject).length > 0);
    const columns = await repo.exportableColumns(exported.map((table) => table.table));
    const found = new Map<PersonalDataTable, ExportedRow[]>();
    const add = (table: PersonalDataTable, rows: ExportedRow[]) => {
      const known = found.get(table) ?? [];
      const ids = new Set(known.map((row) => row.id));
      found.set(table, [...known, ...rows.filter((row) => row.id === undefined || !ids.has(row.id))]);
    };
    const read = async (match: SubjectMatch, values: string[]) => {
      for (const table of exported) add(table, await repo.subjectRows(table, columns.get(table.table) ?? [], match, values));
    };
    await read('id', [userId]);
    const given = (kind: 'email' | 'phone') => [
      ...new Set(
        [...found].flatMap(([table, rows]) =>
          Object.entries(table.personal)
            .filter(([, personal]) => personal === kind)
            .flatMap(([column]) => rows.map((row) => row[column]).filter((value): value is string => typeof value === 'string' && value !== '')),
        ),
      ),
    ];
    const emails = given('email');
    const phones = given('phone');
    await read('email', emails);
    await read('phone', phones);
    return exported.map((table) => ({
      table,
      columns: (columns.get(table.table) ?? []).filter((column) => !withheldColumns(table).has(column)),
      rows: found.get(table) ?? [],
    }));
  }

  /** Builds one requested export, stores it and mails the link (the job's work; a second run finds it done). */
  async function build(exportId: string): Promise<void> {
    const request = await repo.find(exportId);
    if (request?.status !== 'requested') return;
    const account = await deps.accounts.getUser(request.userId);
    const now = new Date();
    const archive = buildExportArchive({ username: account.username, generatedAt: now, tables: await collect(request.userId) });
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + DATA_EXPORT_LINK_MS);
    const mail = buildDataExportMail({ to: account.email, username: account.username, language: account.language, url: `${deps.publicUrl}/my-data/${token}`, expiresAt });
    // The ZIP and its mail in one transaction: a link is never mailed for an export that was not kept, nor kept unmailed.
    const stored = await db.transaction(async (tx) => {
      if (!(await createDataExportsRepository(tx).markReady(exportId, archive, hashToken(token), now, expiresAt))) return false;
      await deps.mail.send(mail, 'data-export', tx);
      return true;
    });
    if (stored) deps.mail.soon();
  }

  async function sweepNow(): Promise<number> {
    const now = new Date();
    const expired = await repo.expire(now);
    await repo.prune(new Date(now.getTime() - KEEP_SPENT_MS));
    for (const exportId of await repo.waiting(new Date(now.getTime() - LOST_JOB_MS))) await queueBuild(exportId);
    if (expired > 0) logger.info(`data exports: ${expired} expired ZIPs removed`);
    return expired;
  }
  const sweeper = createRepeatingTask('data export sweep', sweepNow, { everyMs: deps.sweepMs ?? HOUR, logger, jobs: deps.jobs });

  return {
    async status(userId: string): Promise<DataExportStatus> {
      return statusOf(await repo.latestRequest(userId), new Date());
    },

    /** Queues an export of the user's data, or refuses (429) when they asked less than a day ago. */
    async request(userId: string): Promise<DataExportStatus> {
      const now = new Date();
      const added = await db.transaction((tx) => createDataExportsRepository(tx).addRequest(userId, new Date(now.getTime() - DATA_EXPORT_INTERVAL_MS)));
      if (!added) {
        const status = statusOf(await repo.latestRequest(userId), now);
        const next = status.nextRequestAt ?? now.toISOString();
        throw new AppError(429, 'data_export_too_soon', `You can ask for a copy of your data once a day. You can ask again from ${nairobiTime.format(new Date(next))} (Nairobi time).`, {
          params: { next: nairobiTime.format(new Date(next)) },
          body: { nextRequestAt: next },
        });
      }
      await queueBuild(added.id);
      return statusOf(added, now);
    },

    /**
     * The ZIP behind an emailed token, once, for the account that asked: the download takes it out of the
     * database. Used, expired or unknown tokens get the same 410, so a guess learns nothing; another account's
     * token is refused (404) and left unused, so its owner can still download.
     */
    async download(userId: string, token: string): Promise<{ archive: Buffer; createdAt: Date }> {
      const now = new Date();
      const taken = await db.transaction(async (tx) => {
        const exports = createDataExportsRepository(tx);
        const row = await exports.lockByToken(hashToken(token));
        if (row?.status !== 'ready' || !row.archive || !row.expiresAt || row.expiresAt <= now) return undefined;
        if (row.userId !== userId) return 'other-account' as const;
        await exports.markDownloaded(row.id, now);
        return { archive: row.archive, createdAt: row.createdAt };
      });
      if (taken === 'other-account') {
        throw AppError.notFound('data_export_other_account', 'This download link belongs to another account. Log in with the account that asked for the data.');
      }
      if (!taken) {
        throw new AppError(410, 'data_export_link_gone', 'This download link has already been used or has expired (links work once, for 24 hours). Ask for a new copy on your profile page.');
      }
      return taken;
    },

    /** The job worker; app start calls it. */
    async start() {
      sweeper.start();
      if (deps.jobs) await deps.jobs.work(JOB_NAME, (data) => build((data as { exportId: string }).exportId));
    },
    async stop() {
      await sweeper.stop();
      await deps.jobs?.offWork(JOB_NAME);
    },
    /** Builds a requested export now (tests). */
    build,
    sweep: sweeper.runOnce,
  };
}

export type DataExportService = ReturnType<typeof createDataExportService>;
