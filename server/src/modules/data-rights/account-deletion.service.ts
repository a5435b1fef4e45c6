import { createHash, randomBytes } from 'node:crypto';
import { selfCancelRefund, selfCancelTerms } from '@tukio/shared/refund-policy';
import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { msUntilStart } from '../../lib/event-clock.js';
import type { Language } from '../../lib/i18n.js';
import type { JobQueue } from '../../lib/job-queue.js';
import type { Logger } from '../../lib/logger.js';
import type { PersonalDataMap } from '../../lib/personal-data.js';
import { createRepeatingTask } from '../../lib/repeating-task.js';
import type { MailOutbox } from '../mail/index.js';
import { buildDeletionConfirmMail, buildDeletionScheduledMail } from './account-deletion-mail.js';
import { createAccountDeletionsRepository, type AccountDeletionRow } from './account-deletions.repository.js';
import { eraseAccount, type ErasureReport } from './erase-account.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** The emailed confirmation link works this long. */
export const DELETION_CONFIRM_MS = 24 * HOUR;
const JOB_NAME = 'account erase';

export interface AccountDeletionDeps {
  db: Database;
  map: PersonalDataMap;
  /** Auth's account: who it is, its password, and its deactivation (through app.ts). */
  accounts: {
    getUser(id: string): Promise<{ username: string; email: string; language: Language; role: 'user' | 'admin' }>;
    passwordMatches(executor: Executor, userId: string, password: string): Promise<boolean>;
    setDeactivated(userId: string, deactivated: boolean): Promise<void>;
    /** Every instance drops its cached lookup of the account (its row was erased). */
    forget(userId: string): void;
  };
  /** What the payouts module still owes the organiser or is sending them, per event (nothing: settled). */
  moneyOwed(userId: string): Promise<Array<{ eventId: string; title: string; owed: number }>>;
  mail: Pick<MailOutbox, 'send' | 'soon'>;
  logger: Logger;
  publicUrl: string;
  /** ACCOUNT_DELETION_GRACE_DAYS. */
  graceDays: number;
  jobs?: JobQueue | undefined;
  sweepMs?: number;
}

export type DeletionState = 'none' | 'requested' | 'scheduled' | 'cancelled' | 'erased';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export const deletionMessages = {
  passwordWrong: 'That is not your password. Your account was not deleted.',
  futureTickets: 'You have tickets to events still to come. Cancel them first (under the event’s refund policy), or confirm that they become void without a refund.',
  organiserUnsettled: 'You organise events still to come, or money is still owed on your events. Cancel or finish them and wait for payouts to settle before deleting your account.',
  linkGone: 'This link has already been used or has expired. To delete your account, ask again on your profile page.',
  undoGone: 'This link has already been used, or the account was already deleted (the undo link works until the deletion date).',
  otherAccount: 'This link belongs to another account. Log out first, then open the link again.',
  adminAccount: 'Administrator accounts cannot be deleted this way: remove the admin role first.',
  alreadyScheduled: 'This account is already scheduled for deletion.',
  notScheduled: 'This account is not scheduled for deletion.',
} as const;

/**
 * "Delete my account" (docs/decisions/data-rights.md, "Deleting an account"): asked for signed in with the
 * password, confirmed through an emailed link; confirmed, the account is deactivated at once and erased from the
 * personal-data map when its grace period ends (a job queued for then; an hourly sweep catches lost ones), unless
 * the undo link (or an admin) restores it first. Refused with a 409 listing what to settle first: tickets to
 * events still to come (unless the user accepts them void without refund), and, for an organiser, events still
 * to come and money still owed.
 */
export function createAccountDeletionService(deps: AccountDeletionDeps) {
  const { db, logger } = deps;
  const repo = createAccountDeletionsRepository(db);
  const graceMs = deps.graceDays * DAY;

  /** The refusals a deletion meets now; throws the first 409 with its list. */
  async function refuseUnsettled(userId: string, forfeitTickets: boolean, now: Date) {
    const [events, owed] = await Promise.all([repo.futureEvents(userId, now), deps.moneyOwed(userId)]);
    if (events.length > 0 || owed.length > 0) {
      throw AppError.conflict('account_deletion_organiser_unsettled', deletionMessages.organiserUnsettled, {
        body: { futureEvents: events.map((event) => ({ ...event, startsAt: event.startsAt.toISOString() })), moneyOwed: owed },
      });
    }
    if (forfeitTickets) return;
    const tickets = await repo.futureTickets(userId, now);
    if (tickets.length === 0) return;
    throw AppError.conflict('account_deletion_future_tickets', deletionMessages.futureTickets, {
      body: {
        tickets: tickets.map((ticket) => {
          const terms = selfCancelTerms(ticket.policy, { msUntilStart: msUntilStart(ticket.startsAt, now), paid: ticket.pricePaid > 0 });
          const percent = terms.allowed ? terms.percent : 0;
          return {
            ticketId: ticket.ticketId,
            eventId: ticket.eventId,
            title: ticket.title,
            startsAt: ticket.startsAt.toISOString(),
            ticketType: ticket.ticketType,
            pricePaid: ticket.pricePaid,
            // What cancelling it now gives back under the event's policy (0: cancelling is not allowed, or no refund).
            cancellable: terms.allowed,
            refund: terms.allowed ? selfCancelRefund(ticket.pricePaid, 1, percent) : 0,
          };
        }),
      },
    });
  }

  /** Confirmed (by the link or an admin): deactivate, mail the undo link, queue the erasure for the end of the grace period. */
  async function schedule(row: AccountDeletionRow, now: Date, byAdmin: string | undefined) {
    const account = await deps.accounts.getUser(row.userId);
    const undo = newToken();
    const eraseAt = new Date(now.getTime() + graceMs);
    const mail = buildDeletionScheduledMail({ to: account.email, username: account.username, language: account.language }, `${deps.publicUrl}/delete-account/undo/${undo}`, eraseAt, !!byAdmin);
    const scheduled = await db.transaction(async (tx) => {
      if (!(await createAccountDeletionsRepository(tx).markScheduled(row.id, { confirmedAt: now, eraseAt, undoTokenHash: hashToken(undo) }))) return false;
      await deps.mail.send(mail, 'account deletion', tx);
      return true;
    });
    // Confirmed twice at once (two tabs, a double click): the first one scheduled it and mailed the undo link.
    if (!scheduled) throw new AppError(410, 'account_deletion_link_gone', deletionMessages.linkGone);
    deps.mail.soon();
    await deps.accounts.setDeactivated(row.userId, true);
    if (deps.jobs) await deps.jobs.send(JOB_NAME, { deletionId: row.id }, { startAfter: eraseAt });
    return { state: 'scheduled' as const, eraseAt: eraseAt.toISOString() };
  }

  /** Erases one scheduled deletion whose time has come (the job's work; early, undone or done: nothing). */
  async function erase(deletionId: string, now = new Date()): Promise<ErasureReport | undefined> {
    const done = await db.transaction(async (tx) => {
      const deletions = createAccountDeletionsRepository(tx);
      const row = await deletions.lock(deletionId);
      if (row?.status !== 'scheduled' || !row.eraseAt || row.eraseAt > now) return undefined;
      // A refund still being paid needs the phone: the erasure waits for it (the hourly sweep tries again).
      if ((await deletions.refundsInFlight(row.userId)) > 0) {
        logger.info(`account ${row.userId}: erasure waits for refunds on their way`);
        return undefined;
      }
      const voided = row.forfeitTickets ? await deletions.voidFutureTickets(row.userId, now) : 0;
      const report = await eraseAccount(tx, deps.map, row.userId);
      await deletions.update(row.id, { status: 'erased', erasedAt: now, undoTokenHash: null });
      return { userId: row.userId, report, voided };
    });
    if (!done) return undefined;
    deps.accounts.forget(done.userId);
    logger.info(`account ${done.userId} erased (${done.voided} future tickets void without refund)`);
    return done.report;
  }

  /** Erases every deletion due by `now`, and lets unfollowed confirmation links lapse (the hourly sweep; tests pass a time). */
  async function sweepNow(now = new Date()): Promise<number> {
    await repo.lapse(now);
    let erased = 0;
    for (const id of await repo.due(now)) if (await erase(id, now)) erased += 1;
    return erased;
  }
  const sweeper = createRepeatingTask('account erase sweep', () => sweepNow(), { everyMs: deps.sweepMs ?? HOUR, logger, jobs: deps.jobs });

  /** The open deletion behind an emailed token, for the caller (signed in: it must be their account). */
  function checkCaller(row: AccountDeletionRow, callerId: string | undefined) {
    if (callerId && callerId !== row.userId) throw AppError.notFound('account_deletion_other_account', deletionMessages.otherAccount);
  }

  return {
    /** POST /api/me/account-deletion: checks the password and what is unsettled, then mails the confirmation link. */
    async request(userId: string, input: { password: string; forfeitTickets?: boolean | undefined }, now = new Date()) {
      if (!(await deps.accounts.passwordMatches(db, userId, input.password))) throw new AppError(403, 'account_deletion_password_wrong', deletionMessages.passwordWrong);
      const account = await deps.accounts.getUser(userId);
      if (account.role === 'admin') throw AppError.conflict('account_deletion_admin_account', deletionMessages.adminAccount);
      await refuseUnsettled(userId, input.forfeitTickets ?? false, now);
      const token = newToken();
      const mail = buildDeletionConfirmMail({ to: account.email, username: account.username, language: account.language }, `${deps.publicUrl}/delete-account/${token}`);
      await db.transaction(async (tx) => {
        const deletions = createAccountDeletionsRepository(tx);
        // Asking again replaces an earlier unconfirmed request (its link stops working).
        const open = await deletions.lockOpen(userId);
        if (open) await deletions.update(open.id, { status: 'cancelled', cancelledAt: now, confirmTokenHash: null });
        await deletions.insert({ userId, confirmTokenHash: hashToken(token), confirmExpiresAt: new Date(now.getTime() + DELETION_CONFIRM_MS), forfeitTickets: input.forfeitTickets ?? false });
        await deps.mail.send(mail, 'account deletion', tx);
      });
      deps.mail.soon();
      return { state: 'requested' as const, email: account.email };
    },

    /** GET /api/me/account-deletion: a request still awaiting its emailed link (so /profile shows it after a reload), or none. */
    async status(userId: string, now = new Date()) {
      const row = await repo.latest(userId);
      if (row?.status !== 'requested' || !row.confirmExpiresAt || row.confirmExpiresAt <= now) return { state: 'none' as const };
      const account = await deps.accounts.getUser(userId);
      return { state: 'requested' as const, email: account.email, expiresAt: row.confirmExpiresAt.toISOString() };
    },

    /** POST /api/account-deletion/confirm: the emailed link, signed in or not (the link proves the mailbox; the password was asked). */
    async confirm(token: string, callerId: string | undefined, now = new Date()) {
      const row = await db.transaction(async (tx) => {
        const found = await createAccountDeletionsRepository(tx).lockByConfirmToken(hashToken(token));
        if (found?.status !== 'requested' || !found.confirmExpiresAt || found.confirmExpiresAt <= now) return undefined;
        checkCaller(found, callerId);
        return found;
      });
      if (!row) throw new AppError(410, 'account_deletion_link_gone', deletionMessages.linkGone);
      // Things may have changed since the request (a ticket bought, an event created): checked again.
      await refuseUnsettled(row.userId, row.forfeitTickets, now);
      return schedule(row, now, undefined);
    },

    /** POST /api/account-deletion/undo: the emailed undo link restores the account until its erasure. */
    async undo(token: string, callerId: string | undefined, now = new Date()) {
      const row = await db.transaction(async (tx) => {
        const deletions = createAccountDeletionsRepository(tx);
        const found = await deletions.lockByUndoToken(hashToken(token));
        if (found?.status !== 'scheduled' || !found.eraseAt || found.eraseAt <= now) return undefined;
        checkCaller(found, callerId);
        await deletions.update(found.id, { status: 'cancelled', cancelledAt: now, undoTokenHash: null });
        return found;
      });
      if (!row) throw new AppError(410, 'account_deletion_undo_gone', deletionMessages.undoGone);
      await deps.accounts.setDeactivated(row.userId, false);
      return { state: 'cancelled' as const };
    },

    /** An admin deletes an account on the person's written request: no password or email step, the reason logged; same grace period. */
    async adminSchedule(adminId: string, userId: string, input: { reason: string; forfeitTickets?: boolean | undefined }, now = new Date()) {
      const account = await deps.accounts.getUser(userId);
      if (account.role === 'admin') throw AppError.conflict('account_deletion_admin_account', deletionMessages.adminAccount);
      await refuseUnsettled(userId, input.forfeitTickets ?? false, now);
      const row = await db.transaction(async (tx) => {
        const deletions = createAccountDeletionsRepository(tx);
        const open = await deletions.lockOpen(userId);
        if (open?.status === 'scheduled') throw AppError.conflict('account_deletion_already_scheduled', deletionMessages.alreadyScheduled);
        if (open) await deletions.update(open.id, { status: 'cancelled', cancelledAt: now, confirmTokenHash: null });
        return deletions.insert({ userId, requestedBy: adminId, reason: input.reason, forfeitTickets: input.forfeitTickets ?? false });
      });
      logger.info(`admin ${adminId} scheduled the deletion of account ${userId}: ${input.reason}`);
      return schedule(row, now, adminId);
    },

    /** An admin undoes a scheduled deletion (before its erasure). */
    async adminUndo(adminId: string, userId: string, now = new Date()) {
      const row = await db.transaction(async (tx) => {
        const deletions = createAccountDeletionsRepository(tx);
        const open = await deletions.lockOpen(userId);
        if (open?.status !== 'scheduled') return undefined;
        await deletions.update(open.id, { status: 'cancelled', cancelledAt: now, cancelledBy: adminId, undoTokenHash: null });
        return open;
      });
      if (!row) throw AppError.notFound('account_deletion_not_scheduled', deletionMessages.notScheduled);
      await deps.accounts.setDeactivated(userId, false);
      logger.info(`admin ${adminId} undid the deletion of account ${userId}`);
      return { state: 'cancelled' as const };
    },

    /** Accounts to delete on a written request, by username prefix or exact email (admin). */
    findAccounts: async (q: string) => ({ users: (await repo.findAccounts(q, 20)).map((row) => ({ _id: row.id, username: row.username, email: row.email })) }),

    /** The admin log of deletions made or undone by administrators. */
    adminLog: () => repo.adminLog(200),

    async start() {
      sweeper.start();
      if (deps.jobs) await deps.jobs.work(JOB_NAME, (data) => erase((data as { deletionId: string }).deletionId));
    },
    async stop() {
      await sweeper.stop();
      await deps.jobs?.offWork(JOB_NAME);
    },
    erase,
    /** Erases what is due by `now` (tests pass a time 14 days ahead instead of waiting). */
    sweep: sweepNow,
  };
}

export type AccountDeletionService = ReturnType<typeof createAccountDeletionService>;
