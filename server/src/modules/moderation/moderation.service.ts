import type { Database } from '../../db/database.js';
import { SYSTEM_USER_ID } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { toPage, type CursorKey } from '../../lib/keyset-page.js';
import { translate, translator, type Language, type MessageKey } from '../../lib/i18n.js';
import type { Logger } from '../../lib/logger.js';
import type { Mailer } from '../../lib/mailer.js';
import type { AuthUser } from '../auth/index.js';
import type { ChatService } from '../chat/index.js';
import type { ContentKind, ContentModeration } from '../community/index.js';
import { createModerationRepository } from './moderation.repository.js';
import type { ModerationAction, ReportKind, ReportReason } from './moderation.schemas.js';

/** What moderation needs of accounts: suspending, banning and lifting (auth revokes the sessions). */
export interface AccountMeasures {
  restrict(userId: string, change: { suspendedUntil?: Date | null; bannedAt?: Date | null }): Promise<void>;
}

export interface ModerationDeps {
  db: Database;
  mailer: Mailer;
  logger: Logger;
  content: ContentModeration;
  chat: ChatService['moderation'];
  accounts: AccountMeasures;
  now?: () => Date;
}

export const moderationMessages = {
  ownItem: 'You cannot report your own content.',
  self: 'You cannot report yourself.',
  duplicate: 'You have already reported this.',
  reported: 'Thank you. A moderator will look at your report.',
  notUser: 'That user does not exist.',
  notMessage: 'That message does not exist.',
  gone: 'That item no longer exists; only dismissing its reports is possible.',
  noReports: 'There is nothing to act on: the item does not exist and has no open reports.',
  userNotHideable: 'A user cannot be hidden or deleted: warn, suspend or ban them instead.',
  notOnAdmins: 'Administrators cannot be suspended, banned or warned.',
  notOnSelf: 'You cannot act on your own account or content.',
} as const;

/** What each kind of reported thing is called in mail (catalog keys). */
const KIND_LABEL = {
  comment: 'moderation.kindComment',
  review: 'moderation.kindReview',
  thread: 'moderation.kindThread',
  post: 'moderation.kindPost',
  message: 'moderation.kindMessage',
  user: 'moderation.kindUser',
} as const satisfies Record<ReportKind, MessageKey>;

/** The mail a reported item's author gets, per action (catalog keys of its subject and text). */
const TO_AUTHOR = {
  hide: ['moderation.hideSubject', 'moderation.hideText'],
  delete: ['moderation.deleteSubject', 'moderation.deleteText'],
  warn: ['moderation.warnSubject', 'moderation.warnText'],
  suspend: ['moderation.suspendSubject', 'moderation.suspendText'],
  ban: ['moderation.banSubject', 'moderation.banText'],
  lift: ['moderation.liftSubject', 'moderation.liftText'],
} as const satisfies Partial<Record<ModerationAction, readonly [MessageKey, MessageKey]>>;

/** What a reporter is told once a moderator acted on what they reported (catalog keys). */
const OUTCOME_TO_REPORTER = {
  dismiss: 'moderation.outcomeDismiss',
  hide: 'moderation.outcomeHide',
  unhide: 'moderation.outcomeUnhide',
  delete: 'moderation.outcomeDelete',
  warn: 'moderation.outcomeWarn',
  suspend: 'moderation.outcomeSuspend',
  ban: 'moderation.outcomeBan',
  lift: 'moderation.outcomeLift',
} as const satisfies Record<ModerationAction, MessageKey>;

/** Who a moderation mail goes to. */
type Recipient = { email: string; username: string; language: Language };

/** The words kept in the log with an action: enough to know what it was about after a deletion. */
const EXCERPT_MAX = 500;
/** Messages of the conversation shown with a reported chat message. */
const CONTEXT_MESSAGES = 10;
const DAY = 24 * 60 * 60 * 1000;

/** A reported thing, whatever its kind: its words, its author, where it stands. */
interface Target {
  kind: ReportKind;
  id: string;
  authorId: string;
  authorName: string;
  text: string;
  hidden: boolean;
  hiddenReason: string | null;
  createdAt: Date;
  event: { _id: string; title: string } | null;
  thread: { _id: string; title: string } | null;
  /** Chat messages: the two people in the conversation. */
  recipientId?: string;
}

const isContentKind = (kind: ReportKind): kind is ContentKind => kind === 'comment' || kind === 'review' || kind === 'thread' || kind === 'post';

type LogRow = Awaited<ReturnType<ReturnType<typeof createModerationRepository>['log']>>[number];

/** A moderation log entry as the admin pages show it. */
function toLogEntry(row: LogRow) {
  return {
    _id: row.id,
    action: row.action,
    kind: row.kind,
    id: row.targetId,
    reason: row.reason,
    days: row.days,
    excerpt: row.excerpt,
    createdAt: row.createdAt.toISOString(),
    admin: { _id: row.adminId, username: row.adminName },
    user: row.targetUserId ? { _id: row.targetUserId, username: row.targetUserName ?? '' } : null,
  };
}

export function createModerationService(deps: ModerationDeps) {
  const repo = createModerationRepository(deps.db);
  const now = deps.now ?? (() => new Date());

  /** Mails go out after the answer; a mail server away only costs the mail (logged). */
  function mail(to: string, subject: string, text: string) {
    deps.mailer.send({ to, subject, text }).catch((error: unknown) => deps.logger.error(`moderation mail "${subject}" failed`, error));
  }

  /** The thing, or undefined when it is gone (deleted, or a post left as "[deleted]"). */
  async function loadTarget(kind: ReportKind, id: string): Promise<Target | undefined> {
    if (isContentKind(kind)) {
      const row = await deps.content.find(kind, id);
      if (!row || row.deleted) return undefined;
      return {
        kind,
        id,
        authorId: row.userId,
        authorName: row.username,
        text: row.text,
        hidden: row.hiddenAt !== null,
        hiddenReason: row.hiddenReason,
        createdAt: row.createdAt,
        event: { _id: row.eventId, title: row.eventTitle },
        thread: row.threadId ? { _id: row.threadId, title: row.threadTitle ?? '' } : null,
      };
    }
    if (kind === 'message') {
      const row = await deps.chat.find(id);
      const sender = row && (await repo.findUser(row.senderId));
      if (!row || !sender) return undefined;
      return {
        kind,
        id,
        authorId: row.senderId,
        authorName: sender.username,
        text: row.text,
        hidden: row.hiddenAt !== null,
        hiddenReason: row.hiddenReason,
        createdAt: row.createdAt,
        event: null,
        thread: null,
        recipientId: row.recipientId,
      };
    }
    const user = await repo.findUser(id);
    if (!user) return undefined;
    return { kind, id, authorId: user.id, authorName: user.username, text: user.username, hidden: false, hiddenReason: null, createdAt: new Date(0), event: null, thread: null };
  }

  /**
   * What a reporter may report: something they can see and did not write. Content on an event they
   * cannot see, and chat messages not sent to them, are answered like missing ones.
   */
  async function reportable(user: AuthUser, kind: ReportKind, id: string): Promise<{ authorId: string }> {
    if (isContentKind(kind)) {
      const row = await deps.content.findVisible(kind, id, user);
      if (row.userId === user.id) throw AppError.badRequest('report_own_item', moderationMessages.ownItem, 'id');
      return { authorId: row.userId };
    }
    if (kind === 'message') {
      const row = await deps.chat.find(id);
      if (row?.senderId === user.id) throw AppError.badRequest('report_own_item', moderationMessages.ownItem, 'id');
      if (!row || row.recipientId !== user.id) throw AppError.notFound('message_not_found', moderationMessages.notMessage);
      return { authorId: row.senderId };
    }
    if (id === user.id) throw AppError.badRequest('report_self', moderationMessages.self, 'id');
    if (!(await repo.findUser(id))) throw AppError.notFound('unknown_user', moderationMessages.notUser);
    return { authorId: id };
  }

  async function contextOf(target: Target) {
    if (target.kind === 'message') {
      const row = await deps.chat.find(target.id);
      if (!row) return { posts: [], messages: [] };
      const names = new Map([[target.authorId, target.authorName]]);
      const recipient = await repo.findUser(row.recipientId);
      if (recipient) names.set(recipient.id, recipient.username);
      const messages = await deps.chat.around(row, CONTEXT_MESSAGES);
      return {
        posts: [],
        messages: messages.map((message) => ({
          _id: message.id,
          from: { _id: message.senderId, username: names.get(message.senderId) ?? '' },
          message: message.text,
          hidden: message.hiddenAt !== null,
          reported: message.id === target.id,
          createdAt: message.createdAt.toISOString(),
        })),
      };
    }
    if (isContentKind(target.kind)) {
      const row = await deps.content.find(target.kind, target.id);
      if (row) return { ...(await deps.content.context(row)), messages: [] };
    }
    return { posts: [], messages: [] };
  }

  /** A moderation mail in the recipient's language: a greeting, then `body`. */
  function mailTo(to: Recipient, subject: string, body: string) {
    mail(to.email, subject, `${translate(to.language, 'mail.hello', { username: to.username })}\n\n${body}\n`);
  }

  function tellAuthor(author: Recipient, action: ModerationAction, target: Target, reason: string, until: Date | null) {
    if (!(action in TO_AUTHOR)) return;
    const [subject, text] = TO_AUTHOR[action as keyof typeof TO_AUTHOR];
    const t = translator(author.language);
    const kind = t(KIND_LABEL[target.kind]);
    const what =
      action === 'warn' && target.kind === 'user'
        ? t('moderation.yourAccount')
        : target.event
          ? t('moderation.yourItemOnEvent', { kind, title: target.event.title })
          : t('moderation.yourItem', { kind });
    mailTo(author, t(subject), t(text, { what, reason, until: String(until?.toISOString().slice(0, 16).replace('T', ' ')) }));
  }

  /** Report rows (grouped by item, in queue order) as queue items, each with its item in context and its author's record. */
  async function queueItems(rows: Awaited<ReturnType<typeof repo.openReports>>) {
    const groups = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = `${row.kind}:${row.targetId}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const authors = [...new Set(rows.map((row) => row.targetUserId))];
    const measures = await repo.priorMeasures(authors);
    const record = (userId: string) => {
      const count = (action: string) => measures.find((m) => m.userId === userId && m.action === action)?.n ?? 0;
      return { warnings: count('warn'), suspensions: count('suspend'), bans: count('ban') };
    };
    const items = [];
    for (const reports of groups.values()) {
      const first = reports[0]!;
      const target = await loadTarget(first.kind, first.targetId);
      const author = await repo.findUser(target?.authorId ?? first.targetUserId);
      items.push({
        kind: first.kind,
        id: first.targetId,
        reportCount: reports.length,
        // A raw aggregate: the driver hands it over as text.
        firstReportedAt: new Date(first.first).toISOString(),
        item: target
          ? { text: target.text, hidden: target.hidden, hiddenReason: target.hiddenReason, createdAt: target.kind === 'user' ? null : target.createdAt.toISOString() }
          : null,
        event: target?.event ?? null,
        thread: target?.thread ?? null,
        author: author
          ? {
              _id: author.id,
              username: author.username,
              role: author.role,
              suspendedUntil: author.suspendedUntil?.toISOString() ?? null,
              bannedAt: author.bannedAt?.toISOString() ?? null,
              ...record(author.id),
            }
          : null,
        context: target ? await contextOf(target) : { posts: [], messages: [] },
        reports: reports.map((report) => ({
          _id: report.id,
          reason: report.reason,
          details: report.details,
          createdAt: report.createdAt.toISOString(),
          reporter: { _id: report.reporterId, username: report.reporterName },
          // Held by Tukio's own checks (links from a new account, a burst of posts), not by a person.
          automatic: report.reporterId === SYSTEM_USER_ID,
        })),
      });
    }
    return items;
  }

  return {
    /** Why the account was suspended or banned (the latest such measure's reason), for its ended session's 401. */
    restrictionReason(userId: string): Promise<string | null> {
      return repo.latestRestrictionReason(userId);
    },

    /** One report per user per item; the reported person never learns who reported them. */
    async report(user: AuthUser, input: { kind: ReportKind; id: string; reason: ReportReason; details: string }) {
      const { authorId } = await reportable(user, input.kind, input.id);
      if (await repo.hasReported(user.id, input.kind, input.id)) throw AppError.conflict('report_duplicate', moderationMessages.duplicate);
      try {
        const row = await repo.insertReport({ reporterId: user.id, targetKind: input.kind, targetId: input.id, targetUserId: authorId, reason: input.reason, details: input.details });
        return { _id: row.id, kind: row.targetKind, id: row.targetId, reason: row.reason, details: row.details, status: row.status, outcome: null, createdAt: row.createdAt.toISOString() };
      } catch (error) {
        // Two submissions racing past the check: the unique index decides.
        if (isUniqueViolation(error)) throw AppError.conflict('report_duplicate', moderationMessages.duplicate);
        throw error;
      }
    },

    /**
     * The spam brakes' hold (community calls it through app.ts): a report by the system account, so the
     * held item waits in the queue like any reported one. "Show again" releases it, "Delete" removes it.
     */
    async holdForReview(kind: ContentKind, id: string, authorId: string, why: string): Promise<void> {
      try {
        await repo.insertReport({ reporterId: SYSTEM_USER_ID, targetKind: kind, targetId: id, targetUserId: authorId, reason: 'spam', details: why });
      } catch (error) {
        // Held again after an edit: the first hold is still in the queue.
        if (!isUniqueViolation(error)) throw error;
      }
    },

    async myReports(user: AuthUser) {
      const rows = await repo.reportsBy(user.id);
      return rows.map((row) => ({
        _id: row.id,
        kind: row.targetKind,
        id: row.targetId,
        reason: row.reason,
        details: row.details,
        status: row.status,
        outcome: row.outcome,
        createdAt: row.createdAt.toISOString(),
      }));
    },

    /** Open reports grouped by item, the most reported first, each with the item in context and its author's record. */
    async queue() {
      return queueItems(await repo.openReports());
    },

    /** GET /api/moderation/queue/paged: the queue a page at a time, with the number of items waiting. */
    async queuePage(query: { limit: number; cursor?: CursorKey | undefined }) {
      const [rows, total] = await Promise.all([repo.openReports({ limit: query.limit + 1, after: query.cursor }), repo.openItemCount()]);
      // One row per item for the page (the rows are its reports, grouped by item).
      const firsts = new Map(rows.map((row) => [`${row.kind}:${row.targetId}`, row]));
      const page = toPage([...firsts.values()], query.limit, total, (row) => [String(row.n), row.firstMicros, row.kind, row.targetId]);
      const kept = new Set(page.items.map((row) => `${row.kind}:${row.targetId}`));
      return { ...page, items: await queueItems(rows.filter((row) => kept.has(`${row.kind}:${row.targetId}`))) };
    },

    /**
     * A moderator's action on an item (or a user): done, logged, its open reports resolved, and the
     * reporters and the author told by email. Unhide and lift undo earlier actions and leave reports open.
     */
    async act(admin: AuthUser, kind: ReportKind, id: string, input: { action: ModerationAction; reason: string; days?: number | undefined; hideContent: boolean }) {
      const { action, reason } = input;
      const target = await loadTarget(kind, id);
      const open = await repo.openReportsOn(kind, id);
      if (!target && action !== 'dismiss') throw AppError.notFound('moderation_item_gone', moderationMessages.gone);
      if (!target && open.length === 0) throw AppError.notFound('moderation_nothing_to_act_on', moderationMessages.noReports);
      if (kind === 'user' && (action === 'hide' || action === 'unhide' || action === 'delete')) throw AppError.badRequest('moderation_user_not_hideable', moderationMessages.userNotHideable, 'action');
      const authorId = target?.authorId ?? open[0]!.targetUserId;
      const author = await repo.findUser(authorId);
      const measure = action === 'warn' || action === 'suspend' || action === 'ban' || action === 'lift';
      if (measure && authorId === admin.id) throw AppError.badRequest('moderation_not_on_self', moderationMessages.notOnSelf, 'action');
      if (measure && author?.role === 'admin') throw AppError.badRequest('moderation_not_on_admins', moderationMessages.notOnAdmins, 'action');

      let until: Date | null = null;
      switch (action) {
        case 'hide':
        case 'unhide': {
          const hidden = action === 'hide' ? { by: admin.id, reason } : null;
          if (kind === 'message') await deps.chat.setHidden(id, hidden);
          else await deps.content.setHidden(kind as ContentKind, id, hidden);
          break;
        }
        case 'delete':
          if (kind === 'message') await deps.chat.remove(id);
          else await deps.content.remove(kind as ContentKind, id, admin);
          break;
        case 'suspend':
          until = new Date(now().getTime() + input.days! * DAY);
          await deps.accounts.restrict(authorId, { suspendedUntil: until });
          break;
        case 'ban':
          await deps.accounts.restrict(authorId, { bannedAt: now() });
          break;
        case 'lift':
          await deps.accounts.restrict(authorId, { suspendedUntil: null, bannedAt: null });
          break;
        default:
          break;
      }
      if ((action === 'suspend' || action === 'ban') && input.hideContent) await deps.content.hideAllBy(authorId, { by: admin.id, reason });

      const logged = await repo.logAction({
        adminId: admin.id,
        targetKind: kind,
        targetId: id,
        targetUserId: author ? authorId : null,
        action,
        reason,
        days: action === 'suspend' ? input.days! : null,
        excerpt: (target?.text ?? '').slice(0, EXCERPT_MAX),
      });

      // Lifting a measure concerns the account, not the item: its reports stay for another look.
      const resolving = action !== 'lift';
      if (resolving) {
        await repo.resolve(
          open.map((report) => report.id),
          action,
        );
        for (const report of open) {
          if (report.reporterId === SYSTEM_USER_ID) continue;
          const t = translator(report.language);
          const thanks = target?.event
            ? t('moderation.reportThanksOnEvent', { kind: t(KIND_LABEL[kind]), title: target.event.title })
            : t('moderation.reportThanks', { kind: t(KIND_LABEL[kind]) });
          mailTo(report, t('moderation.reportSubject'), `${thanks}\n\n${t(OUTCOME_TO_REPORTER[action])}`);
        }
      }
      if (author && target) tellAuthor(author, action, target, reason, until);
      else if (author && measure) tellAuthor(author, action, { kind: 'user', id: authorId, authorId, authorName: author.username, text: '', hidden: false, hiddenReason: null, createdAt: new Date(0), event: null, thread: null }, reason, until);

      return {
        _id: logged.id,
        action: logged.action,
        kind: logged.targetKind,
        id: logged.targetId,
        reason: logged.reason,
        days: logged.days,
        suspendedUntil: until?.toISOString() ?? null,
        resolvedReports: resolving ? open.length : 0,
        createdAt: logged.createdAt.toISOString(),
      };
    },

    /** The action log, newest first: who did what, when, why (optionally about one account). */
    async log(options: { userId?: string | undefined }) {
      const rows = await repo.log({ userId: options.userId, limit: 200 });
      return rows.map(toLogEntry);
    },

    /** GET /api/moderation/log/paged: the log a page at a time, newest first. */
    async logPage(query: { userId?: string | undefined; limit: number; cursor?: CursorKey | undefined }) {
      const [rows, total] = await Promise.all([repo.log({ userId: query.userId, limit: query.limit + 1, after: query.cursor }), repo.logCount(query.userId)]);
      const page = toPage(rows, query.limit, total, (row) => [row.createdAtMicros, row.id]);
      return { ...page, items: page.items.map(toLogEntry) };
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
