import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { afterTimeKey, epochMicros } from '../../db/keyset-sql.js';
import { users } from '../auth/index.js';
import { moderationActions, reports } from './moderation.schema.js';
import type { CursorKey } from '../../lib/keyset-page.js';
import type { ModerationAction, ReportKind, ReportReason } from './moderation.schemas.js';

export type ReportRow = typeof reports.$inferSelect;

/** Items shown in one page of the queue. */
export const QUEUE_ITEMS = 100;

export function createModerationRepository(db: Executor) {
  const reporter = alias(users, 'reporter');
  const admin = alias(users, 'admin');
  const target = alias(users, 'target');

  return {
    async findUser(id: string) {
      const [row] = await db
        .select({ id: users.id, username: users.username, email: users.email, language: users.language, role: users.role, suspendedUntil: users.suspendedUntil, bannedAt: users.bannedAt })
        .from(users)
        .where(eq(users.id, id))
        .limit(1);
      return row;
    },

    async hasReported(reporterId: string, kind: ReportKind, targetId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: reports.id })
        .from(reports)
        .where(and(eq(reports.reporterId, reporterId), eq(reports.targetKind, kind), eq(reports.targetId, targetId)))
        .limit(1);
      return Boolean(row);
    },

    /** The unique (reporter, kind, target) index is the final word on "one report per user per item". */
    async insertReport(values: { reporterId: string; targetKind: ReportKind; targetId: string; targetUserId: string; reason: ReportReason; details: string }) {
      const [row] = await db.insert(reports).values({ id: newId(), ...values }).returning();
      return row!;
    },

    async reportsBy(reporterId: string) {
      return db.select().from(reports).where(eq(reports.reporterId, reporterId)).orderBy(desc(reports.createdAt), desc(reports.id)).limit(200);
    },

    /**
     * The items with open reports, the most reported (then the longest waiting) first, with every open
     * report on them and who made it: one query, grouped by the service. A page (`limit`, after the
     * item `after` = [reports, first report in microseconds, kind, id]) or, without one, the first QUEUE_ITEMS.
     */
    async openReports(page: { limit: number; after?: CursorKey | undefined } = { limit: QUEUE_ITEMS }) {
      const count = sql<number>`count(*)::int`;
      const first = sql`min(${reports.createdAt})`;
      const after = page.after;
      const items = db
        .select({
          kind: reports.targetKind,
          targetId: reports.targetId,
          n: count.as('n'),
          first: sql<string>`${first}`.as('first'),
          firstMicros: sql<string>`${epochMicros(first)}`.as('first_micros'),
        })
        .from(reports)
        .where(eq(reports.status, 'open'))
        .groupBy(reports.targetKind, reports.targetId)
        .having(
          after
            ? sql`count(*) < ${Number(after[0])} or (count(*) = ${Number(after[0])} and (${epochMicros(first)}::bigint, ${reports.targetKind}, ${reports.targetId}) > (${after[1]}::bigint, ${after[2]}, ${after[3]}))`
            : undefined,
        )
        .orderBy(sql`count(*) desc`, first, reports.targetKind, reports.targetId)
        .limit(page.limit)
        .as('items');
      return db
        .select({
          id: reports.id,
          kind: reports.targetKind,
          targetId: reports.targetId,
          targetUserId: reports.targetUserId,
          reason: reports.reason,
          details: reports.details,
          createdAt: reports.createdAt,
          reporterId: reports.reporterId,
          reporterName: reporter.username,
          n: items.n,
          first: items.first,
          firstMicros: items.firstMicros,
        })
        .from(reports)
        .innerJoin(items, and(eq(items.kind, reports.targetKind), eq(items.targetId, reports.targetId)))
        .innerJoin(reporter, eq(reporter.id, reports.reporterId))
        .where(eq(reports.status, 'open'))
        .orderBy(desc(items.n), items.first, items.kind, items.targetId, reports.createdAt);
    },

    /** How many items have open reports (the queue's length). */
    async openItemCount(): Promise<number> {
      const groups = db.select({ one: sql`1` }).from(reports).where(eq(reports.status, 'open')).groupBy(reports.targetKind, reports.targetId).as('groups');
      const [row] = await db.select({ n: sql<number>`count(*)::int`.mapWith(Number) }).from(groups);
      return row?.n ?? 0;
    },

    async openReportsOn(kind: ReportKind, targetId: string) {
      return db
        .select({ id: reports.id, targetUserId: reports.targetUserId, reporterId: reports.reporterId, reason: reports.reason, email: reporter.email, username: reporter.username, language: reporter.language })
        .from(reports)
        .innerJoin(reporter, eq(reporter.id, reports.reporterId))
        .where(and(eq(reports.status, 'open'), eq(reports.targetKind, kind), eq(reports.targetId, targetId)));
    },

    async resolve(ids: string[], outcome: ModerationAction): Promise<void> {
      if (ids.length === 0) return;
      await db.update(reports).set({ status: 'resolved', outcome, resolvedAt: new Date() }).where(and(inArray(reports.id, ids), eq(reports.status, 'open')));
    },

    /** The reason of the latest suspension or ban of an account (what a signed-out suspended user is told). */
    async latestRestrictionReason(userId: string): Promise<string | null> {
      const [row] = await db
        .select({ reason: moderationActions.reason })
        .from(moderationActions)
        .where(and(eq(moderationActions.targetUserId, userId), inArray(moderationActions.action, ['suspend', 'ban'])))
        .orderBy(desc(moderationActions.createdAt), desc(moderationActions.id))
        .limit(1);
      return row?.reason ?? null;
    },

    /** Earlier measures against an account (warnings, suspensions, bans), for the queue. */
    async priorMeasures(userIds: string[]) {
      if (userIds.length === 0) return [];
      return db
        .select({ userId: moderationActions.targetUserId, action: moderationActions.action, n: sql<number>`count(*)::int` })
        .from(moderationActions)
        .where(and(inArray(moderationActions.targetUserId, userIds), inArray(moderationActions.action, ['warn', 'suspend', 'ban'])))
        .groupBy(moderationActions.targetUserId, moderationActions.action);
    },

    async logAction(values: { adminId: string; targetKind: ReportKind; targetId: string; targetUserId: string | null; action: ModerationAction; reason: string; days: number | null; excerpt: string }) {
      const [row] = await db.insert(moderationActions).values({ id: newId(), ...values }).returning();
      return row!;
    },

    /** Newest first, after `after` when given; each row with its time in microseconds (a page's cursor). */
    async log(options: { userId?: string | undefined; limit: number; after?: CursorKey | undefined }) {
      return db
        .select({
          createdAtMicros: epochMicros(moderationActions.createdAt),
          id: moderationActions.id,
          action: moderationActions.action,
          kind: moderationActions.targetKind,
          targetId: moderationActions.targetId,
          reason: moderationActions.reason,
          days: moderationActions.days,
          excerpt: moderationActions.excerpt,
          createdAt: moderationActions.createdAt,
          adminId: moderationActions.adminId,
          adminName: admin.username,
          targetUserId: moderationActions.targetUserId,
          targetUserName: target.username,
        })
        .from(moderationActions)
        .innerJoin(admin, eq(admin.id, moderationActions.adminId))
        .leftJoin(target, eq(target.id, moderationActions.targetUserId))
        .where(and(options.userId ? eq(moderationActions.targetUserId, options.userId) : undefined, afterTimeKey('desc', moderationActions.createdAt, moderationActions.id, options.after)))
        .orderBy(desc(moderationActions.createdAt), desc(moderationActions.id))
        .limit(options.limit);
    },

    async logCount(userId: string | undefined): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
        .from(moderationActions)
        .where(userId ? eq(moderationActions.targetUserId, userId) : undefined);
      return row?.n ?? 0;
    },
  };
}
