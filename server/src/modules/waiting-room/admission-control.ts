import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from '../../lib/logger.js';

/**
 * The admission rate of every sale's line, following what the deployment sustains instead of a number
 * someone guessed (docs/decisions/waiting-room.md). Each instance looks, once a period, at how long the
 * seat holds it ran took, how long whole pushes took (the payment service reports each push's time from
 * asking for the order to recording it, Daraja included: the part of a purchase the API server cannot see),
 * and how late its event loop ran; from that it votes:
 * - `down`: holds (90th percentile) or the loop (99th) are slower than the target, or pushes (90th
 *   percentile) slower than the push target: the servers are past what they sustain, so fewer buyers a
 *   second are let in (the rate times 0.7);
 * - `up`: buyers are waiting and all three are under half their targets: there is room for more (plus a tenth
 *   of the starting rate);
 * - `hold` otherwise.
 * The votes meet in the store (Redis with several instances): a `down` from any instance counts at once (once
 * a period), an `up` only after three quiet periods, so the rate settles just under the overload point
 * (additive increase, multiplicative decrease, as TCP finds a link's capacity).
 */
export type RateVote = 'up' | 'down' | 'hold';

export interface AdmissionBounds {
  /** The rate a line starts with (WAITING_ROOM_RATE). */
  initial: number;
  min: number;
  max: number;
  /** Added on an `up` vote. */
  step: number;
  /** Multiplies the rate on a `down` vote. */
  factor: number;
  /** One change of each kind per period at most, whichever instance votes. */
  periodMs: number;
}

export interface SharedAdmissionRate {
  /** Applies one instance's vote to the shared rate and answers the rate now. */
  vote(vote: RateVote, bounds: AdmissionBounds): Promise<number>;
}

/**
 * How many seat holds made between `olderThanMs` and a minute ago still have no push recorded. A push stuck
 * beyond the API server (the payment service or M-Pesa saturated) reports no time of its own until it is done,
 * so it would otherwise look like no trouble at all; each one counts as a push slower than the target.
 */
export type StuckPushes = (olderThanMs: number) => Promise<number>;

export interface AdmissionControlOptions {
  /** Off: the rate stays `initial` (WAITING_ROOM_ADAPTIVE=false). */
  adaptive: boolean;
  initial: number;
  min: number;
  max: number;
  /** Seat-hold latency to stay under, in ms (WAITING_ROOM_TARGET_MS). */
  targetMs: number;
  /** Whole-push latency to stay under, in ms (WAITING_ROOM_PUSH_TARGET_MS). */
  pushTargetMs: number;
  periodMs?: number;
}

const DEFAULT_PERIOD_MS = 1000;
const DECREASE_FACTOR = 0.7;
/** Holds kept per period for the percentile: enough for a p90, bounded memory under any load. */
const MAX_SAMPLES = 2000;

export function percentile(values: number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

export interface PeriodSamples {
  holdsMs: number[];
  /** Whole pushes reported in the period (none when no push was recorded). */
  pushesMs: number[];
  loopDelayMs: number;
  queued: boolean;
}

/** The vote of one period, from its hold and push times, the loop's lateness (p99, ms) and whether anyone was turned away to wait. */
export function voteFor(period: PeriodSamples, targets: { targetMs: number; pushTargetMs: number }): RateVote {
  const holdP90 = percentile(period.holdsMs, 0.9);
  const pushP90 = percentile(period.pushesMs, 0.9);
  const { targetMs, pushTargetMs } = targets;
  if (holdP90 > targetMs || period.loopDelayMs > targetMs || pushP90 > pushTargetMs) return 'down';
  if (period.queued && holdP90 <= targetMs / 2 && period.loopDelayMs <= targetMs / 2 && pushP90 <= pushTargetMs / 2) return 'up';
  return 'hold';
}

/** The rate in this process (the embedded default runs one instance); Redis's store shares it otherwise. */
export function createMemorySharedRate(now: () => number = Date.now): SharedAdmissionRate {
  let state: { rate: number; changedAt: number; downAt: number } | undefined;
  return {
    async vote(vote, bounds) {
      const at = now();
      state ??= { rate: bounds.initial, changedAt: -Infinity, downAt: -Infinity };
      if (vote === 'down' && at - state.downAt >= bounds.periodMs) {
        state.rate *= bounds.factor;
        state.downAt = state.changedAt = at;
      } else if (vote === 'up' && at - state.changedAt >= bounds.periodMs && at - state.downAt >= 3 * bounds.periodMs) {
        state.rate += bounds.step;
        state.changedAt = at;
      }
      state.rate = Math.min(bounds.max, Math.max(bounds.min, state.rate));
      return state.rate;
    },
  };
}

export function createAdmissionControl(options: AdmissionControlOptions, shared: SharedAdmissionRate, logger: Logger, stuckPushes?: StuckPushes) {
  const bounds: AdmissionBounds = {
    initial: options.initial,
    // The bounds never exclude the starting rate, whatever was configured.
    min: Math.min(options.min, options.initial),
    max: Math.max(options.max, options.initial),
    step: Math.max(0.1, options.initial / 10),
    factor: DECREASE_FACTOR,
    periodMs: options.periodMs ?? DEFAULT_PERIOD_MS,
  };
  let rate = options.initial;
  let holds: number[] = [];
  let pushes: number[] = [];
  let queued = false;
  let timer: NodeJS.Timeout | undefined;
  let loopDelay: ReturnType<typeof monitorEventLoopDelay> | undefined;

  const control = {
    /** Admissions per second now, for every line. */
    get perSecond() {
      return rate;
    },
    /** A seat hold of an admitted buyer took `ms`. */
    observeHold(ms: number) {
      // Kept only when something votes on them (adaptive); a fixed rate never reads them.
      if (options.adaptive && holds.length < MAX_SAMPLES) holds.push(ms);
    },
    /** A whole push (order asked for → push recorded, as the payment service timed it) took `ms`. */
    observePush(ms: number) {
      if (options.adaptive && pushes.length < MAX_SAMPLES) pushes.push(ms);
    },
    /** A buyer was told to wait: there is demand beyond the rate. */
    observeQueued() {
      queued = true;
    },
    /** One period's vote, applied; answers the rate now. `lateMs`: how late the period's own timer ran. */
    async adjust(lateMs = 0): Promise<number> {
      // The sampler may not have run yet after a stall that delayed this very timer: its lateness counts too.
      const stuck = stuckPushes ? await stuckPushes(options.pushTargetMs) : 0;
      const pushesMs = stuck > 0 ? [...pushes, ...Array.from({ length: Math.min(stuck, MAX_SAMPLES) }, () => options.pushTargetMs + 1)] : pushes;
      const period = { holdsMs: holds, pushesMs, loopDelayMs: Math.max(lateMs, loopDelay ? loopDelay.percentile(99) / 1e6 : 0), queued };
      holds = [];
      pushes = [];
      queued = false;
      loopDelay?.reset();
      const vote = voteFor(period, options);
      const before = rate;
      rate = await shared.vote(vote, bounds);
      if (Math.round(rate * 10) !== Math.round(before * 10)) logger.info(`waiting room: admitting ${rate.toFixed(1)} buyers a second per sale (was ${before.toFixed(1)}, this instance voted ${vote})`);
      return rate;
    },
    start() {
      if (!options.adaptive || timer) return;
      loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      let dueAt = 0;
      const schedule = () => {
        dueAt = performance.now() + bounds.periodMs;
        timer = setTimeout(tick, bounds.periodMs).unref();
      };
      const tick = () => {
        control
          .adjust(Math.max(0, performance.now() - dueAt))
          .catch((error: unknown) => logger.error('waiting room: admission rate not adjusted', error))
          .finally(() => {
            if (timer) schedule();
          });
      };
      schedule();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      loopDelay?.disable();
    },
  };
  return control;
}

export type AdmissionControl = ReturnType<typeof createAdmissionControl>;
