import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthUser } from '../auth/index.js';
import { findEvent } from '../events/index.js';
import { basisPoints, NO_FEE, percentOf, type FeeRule } from './fee-rule.js';
import { createFeesRepository } from './fees.repository.js';
import type { FeeInput } from './fees.schemas.js';

/** Settings shown with the current one: enough history for an administrator's screen. */
const HISTORY_SHOWN = 50;

export const feeMessages = { eventNotFound: 'Event not found.' } as const;

/** A rule as the API speaks it (a percent, not basis points). */
export const feeView = (rule: FeeRule) => ({ percent: percentOf(rule.percentBp), fixed: rule.fixed, minimum: rule.minimum });
const ruleOf = (input: FeeInput): FeeRule => ({ percentBp: basisPoints(input.percent), fixed: input.fixed, minimum: input.minimum });

/**
 * The platform fee's settings (docs/decisions/fees.md): the administrator's platform-wide fee and per-event
 * overrides, each change a new row (the history stays). Pricing reads the fee in force with the event's facts
 * (`tukio_pricing_facts`), so a changed fee reprices any checkout priced before it.
 */
export function createFeesService(deps: { db: Database }) {
  const repo = createFeesRepository(deps.db);

  async function platform() {
    const history = await repo.platformHistory(HISTORY_SHOWN);
    return {
      fee: feeView(history[0] ?? NO_FEE),
      history: history.map((row) => ({ ...feeView(row), setBy: row.createdBy, setAt: row.createdAt.toISOString() })),
    };
  }

  async function forEvent(eventId: string) {
    const event = await findEvent(deps.db, eventId);
    if (!event) throw AppError.notFound('event_not_found', feeMessages.eventNotFound);
    const [override, [current]] = await Promise.all([repo.latestOverride(eventId), repo.platformHistory(1)]);
    const rule = override?.rule ?? null;
    return { eventId, feeMode: event.feeMode, override: rule && feeView(rule), fee: feeView(rule ?? current ?? NO_FEE) };
  }

  return {
    /** On start: a fresh install gets the configured fee as its first setting; an install with settings keeps them. */
    ensureInitialFee: (initial: FeeRule) => repo.addInitialSetting(initial),

    /** GET /api/admin/fees */
    platform,

    /** PUT /api/admin/fees: a new platform fee, in force for every order priced from now on. */
    async setPlatform(input: FeeInput, user: AuthUser) {
      await repo.addPlatformSetting(ruleOf(input), user.id);
      return platform();
    },

    /** GET /api/admin/events/:id/fee */
    forEvent,

    /** PUT /api/admin/events/:id/fee: the event's own fee, or (null) back to the platform's. */
    async setEventOverride(eventId: string, input: FeeInput | null, user: AuthUser) {
      if (!(await findEvent(deps.db, eventId))) throw AppError.notFound('event_not_found', feeMessages.eventNotFound);
      await repo.addOverride(eventId, input && ruleOf(input), user.id);
      return forEvent(eventId);
    },
  };
}

export type FeesService = ReturnType<typeof createFeesService>;
