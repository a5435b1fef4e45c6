import { redisScript, type RedisCommands } from '../../lib/redis.js';
import type { AdmissionBounds, SharedAdmissionRate } from './admission-control.js';

/**
 * Where an event's waiting room keeps its line: arrival numbers by buyer, the admission frontier and
 * the token bucket that moves it. In Redis (one line for every API instance) or in this process (the
 * embedded default, one instance).
 */
export interface AdmissionRate {
  /** Buyers admitted per second while people wait (read at every visit: it follows ./admission-control.ts). */
  perSecond: number;
  /** Buyers admitted at once when nobody waits (an ordinary sale never sees the line). */
  burst: number;
}

export interface QueueVisit {
  /** The buyer's place in arrival order (1 = first); 0 when they have none (a look without joining). */
  number: number;
  /** Every number up to this one is admitted. */
  frontier: number;
  /** When the buyer was first seen admitted (epoch ms); null while they wait. */
  admittedAt: number | null;
  /** The store's clock (Redis's own with Redis: instances' clocks may differ). */
  now: number;
}

export interface WaitingRoomStore {
  /**
   * Moves the frontier on by the tokens earned since the last visit, then answers `member`'s place;
   * `join` gives a member without a place the next number. Atomic per event.
   */
  visit(eventId: string, member: string, join: boolean): Promise<QueueVisit>;
  /** Forgets `member`'s place (their turn lapsed): joining again puts them at the back. */
  forget(eventId: string, member: string): Promise<void>;
}

/** A line nobody has visited for this long is forgotten whole. */
export const LINE_IDLE_MS = 6 * 60 * 60 * 1000;

/**
 * KEYS: the line's state {seq, frontier, tokens, at}, numbers by member, admission times by member.
 * ARGV: member, join (1/0), per second, burst, idle expiry ms.
 */
const VISIT_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local perSecond = tonumber(ARGV[3])
local burst = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'seq', 'frontier', 'tokens', 'at')
local seq = tonumber(state[1]) or 0
local frontier = tonumber(state[2]) or 0
local tokens = burst
if state[3] and state[4] then
  tokens = math.min(burst, tonumber(state[3]) + math.max(0, now - tonumber(state[4])) * perSecond / 1000)
end
local number = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if number == 0 and ARGV[2] == '1' then
  seq = seq + 1
  number = seq
  redis.call('HSET', KEYS[2], ARGV[1], number)
end
local admit = math.min(seq - frontier, math.floor(tokens))
if admit > 0 then
  frontier = frontier + admit
  tokens = tokens - admit
end
redis.call('HSET', KEYS[1], 'seq', seq, 'frontier', frontier, 'tokens', tostring(tokens), 'at', now)
local admittedAt = -1
if number > 0 and number <= frontier then
  admittedAt = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '-1')
  if admittedAt < 0 then
    admittedAt = now
    redis.call('HSET', KEYS[3], ARGV[1], now)
  end
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return {number, frontier, admittedAt, now}
`;
const visitScript = redisScript(VISIT_SCRIPT);

/**
 * The shared admission rate's vote (./admission-control.ts), with Redis's clock. KEYS: the rate's hash
 * {rate, changedAt, downAt}. ARGV: vote, initial, min, max, step, factor, period ms, idle expiry ms.
 * The rate is answered as text: Redis would cut a Lua number to an integer.
 */
const VOTE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'rate', 'changedAt', 'downAt')
local rate = tonumber(state[1]) or tonumber(ARGV[2])
local changedAt = tonumber(state[2]) or -1e15
local downAt = tonumber(state[3]) or -1e15
local period = tonumber(ARGV[7])
if ARGV[1] == 'down' and now - downAt >= period then
  rate = rate * tonumber(ARGV[6])
  downAt = now
  changedAt = now
elseif ARGV[1] == 'up' and now - changedAt >= period and now - downAt >= 3 * period then
  rate = rate + tonumber(ARGV[5])
  changedAt = now
end
rate = math.min(tonumber(ARGV[4]), math.max(tonumber(ARGV[3]), rate))
redis.call('HSET', KEYS[1], 'rate', tostring(rate), 'changedAt', tostring(changedAt), 'downAt', tostring(downAt))
redis.call('PEXPIRE', KEYS[1], ARGV[8])
return tostring(rate)
`;
const voteScript = redisScript(VOTE_SCRIPT);

/** One admission rate for every instance sharing this Redis (and key prefix). */
export function createRedisSharedRate(redis: RedisCommands, keyPrefix: string): SharedAdmissionRate {
  const key = `${keyPrefix}waiting-room:rate`;
  return {
    async vote(vote, bounds: AdmissionBounds) {
      const args = [vote, ...[bounds.initial, bounds.min, bounds.max, bounds.step, bounds.factor, bounds.periodMs, LINE_IDLE_MS].map(String)];
      return Number(await voteScript(redis, [key], args));
    },
  };
}

export function createRedisWaitingRoomStore(redis: RedisCommands, keyPrefix: string, rate: AdmissionRate): WaitingRoomStore {
  // One hash tag per event keeps an event's three keys on one Redis Cluster slot (the script touches all three).
  const keys = (eventId: string) => [`${keyPrefix}line:{${eventId}}:state`, `${keyPrefix}line:{${eventId}}:numbers`, `${keyPrefix}line:{${eventId}}:admitted`];
  return {
    async visit(eventId, member, join) {
      const reply = await visitScript(redis, keys(eventId), [member, join ? '1' : '0', String(rate.perSecond), String(rate.burst), String(LINE_IDLE_MS)]);
      const [number, frontier, admittedAt, now] = (reply as unknown[]).map(Number) as [number, number, number, number];
      return { number, frontier, admittedAt: admittedAt < 0 ? null : admittedAt, now };
    },
    async forget(eventId, member) {
      const [, numbers, admitted] = keys(eventId);
      await redis.sendCommand(['HDEL', numbers!, member]);
      await redis.sendCommand(['HDEL', admitted!, member]);
    },
  };
}

/** The same line in this process: the embedded default runs one API instance. */
export function createMemoryWaitingRoomStore(rate: AdmissionRate, now: () => number = Date.now): WaitingRoomStore {
  const lines = new Map<string, { seq: number; frontier: number; tokens: number; at: number; numbers: Map<string, number>; admitted: Map<string, number> }>();
  return {
    async visit(eventId, member, join) {
      const at = now();
      for (const [id, line] of lines) if (at - line.at > LINE_IDLE_MS) lines.delete(id);
      let line = lines.get(eventId);
      if (!line) {
        line = { seq: 0, frontier: 0, tokens: rate.burst, at, numbers: new Map(), admitted: new Map() };
        lines.set(eventId, line);
      }
      let tokens = Math.min(rate.burst, line.tokens + (Math.max(0, at - line.at) * rate.perSecond) / 1000);
      let number = line.numbers.get(member) ?? 0;
      if (number === 0 && join) {
        number = ++line.seq;
        line.numbers.set(member, number);
      }
      const admit = Math.min(line.seq - line.frontier, Math.floor(tokens));
      if (admit > 0) {
        line.frontier += admit;
        tokens -= admit;
      }
      line.tokens = tokens;
      line.at = at;
      let admittedAt: number | null = null;
      if (number > 0 && number <= line.frontier) {
        admittedAt = line.admitted.get(member) ?? at;
        line.admitted.set(member, admittedAt);
      }
      return { number, frontier: line.frontier, admittedAt, now: at };
    },
    async forget(eventId, member) {
      const line = lines.get(eventId);
      line?.numbers.delete(member);
      line?.admitted.delete(member);
    },
  };
}
