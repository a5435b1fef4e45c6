import { randomBytes } from 'node:crypto';

const TAIL_LIMIT = 1n << 64n;
let currentSecond = -1;
let tail = 0n;

const randomBigInt = (bytes: number) => BigInt(`0x${randomBytes(bytes).toString('hex')}`);

/**
 * ObjectId-shaped ids: the contract's 24 lowercase hex `_id` strings, 4 bytes of seconds and an 8-byte
 * tail that no other id gives away (a counter let anyone guess the ids next to one they had seen).
 * Each second the tail starts at a random point below 2^62 and every id moves it on by a random step of
 * 1 to 2^40, so the next id is one of 2^40 candidates, yet one process's ids still sort in creation
 * order: rows written in one transaction share a created_at, and chat, tickets and the community
 * lists break such ties by id. The 2^62 start leaves room for millions of ids a second; past that
 * (or when the clock steps back) the tail starts afresh.
 */
export function newId(): string {
  const second = Math.floor(Date.now() / 1000);
  const step = randomBigInt(5) + 1n;
  if (second !== currentSecond || tail + step >= TAIL_LIMIT) {
    currentSecond = second;
    tail = randomBigInt(8) >> 2n;
  } else {
    tail += step;
  }
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(second, 0);
  bytes.writeBigUInt64BE(tail, 4);
  return bytes.toString('hex');
}

export const SYSTEM_USER_ID = '000000000000000000000001';

export function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
}
