import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import type { FeeRule } from './fee-rule.js';
import { eventFeeOverrides, platformFeeSettings } from './fees.schema.js';

/** A fee setting as it was written: the rule, who set it (null: the server's configuration) and when. */
export interface FeeSettingRow extends FeeRule {
  id: string;
  createdBy: string | null;
  createdAt: Date;
}

const ruleColumns = { id: platformFeeSettings.id, percentBp: platformFeeSettings.percentBp, fixed: platformFeeSettings.fixed, minimum: platformFeeSettings.minimum };

/** The fee settings: rows are only ever added (the newest in force), so every past setting is kept. */
export function createFeesRepository(db: Executor) {
  return {
    /** The platform's settings, newest first (`limit` of them). */
    async platformHistory(limit: number): Promise<FeeSettingRow[]> {
      return db
        .select({ ...ruleColumns, createdBy: platformFeeSettings.createdBy, createdAt: platformFeeSettings.createdAt })
        .from(platformFeeSettings)
        .orderBy(desc(platformFeeSettings.createdAt), desc(platformFeeSettings.id))
        .limit(limit);
    },

    async addPlatformSetting(rule: FeeRule, createdBy: string | null): Promise<void> {
      await db.insert(platformFeeSettings).values({ id: newId(), ...rule, createdBy });
    },

    /** The configuration's fee, written only when no setting exists (a fresh install); servers racing to write it write the same. */
    async addInitialSetting(rule: FeeRule): Promise<void> {
      await db.execute(sql`
        insert into ${platformFeeSettings} (id, percent_bp, fixed, minimum)
        select ${newId()}, ${rule.percentBp}, ${rule.fixed}, ${rule.minimum}
         where not exists (select 1 from ${platformFeeSettings})`);
    },

    /** The event's newest override row (a cleared one has no rule), or undefined when it never had one. */
    async latestOverride(eventId: string): Promise<{ rule: FeeRule | null; createdBy: string; createdAt: Date } | undefined> {
      const [row] = await db
        .select()
        .from(eventFeeOverrides)
        .where(eq(eventFeeOverrides.eventId, eventId))
        .orderBy(desc(eventFeeOverrides.createdAt), desc(eventFeeOverrides.id))
        .limit(1);
      if (!row) return undefined;
      const rule = row.percentBp === null || row.fixed === null || row.minimum === null ? null : { percentBp: row.percentBp, fixed: row.fixed, minimum: row.minimum };
      return { rule, createdBy: row.createdBy, createdAt: row.createdAt };
    },

    /** A new override for the event, or (null) the end of its override. */
    async addOverride(eventId: string, rule: FeeRule | null, createdBy: string): Promise<void> {
      await db.insert(eventFeeOverrides).values({ id: newId(), eventId, percentBp: rule?.percentBp ?? null, fixed: rule?.fixed ?? null, minimum: rule?.minimum ?? null, createdBy });
    },
  };
}
