import { randomBytes } from 'node:crypto';

const processRandom = randomBytes(5);
let counter = randomBytes(3).readUIntBE(0, 3);

/**
 * ObjectId-shaped ids (4-byte seconds, 5-byte process random, 3-byte counter) keep the contract's
 * 24-hex `_id` strings and sort roughly by creation time.
 */
export function newId(): string {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(Math.floor(Date.now() / 1000), 0);
  processRandom.copy(bytes, 4);
  counter = (counter + 1) % 0xffffff;
  bytes.writeUIntBE(counter, 9, 3);
  return bytes.toString('hex');
}

export const SYSTEM_USER_ID = '000000000000000000000001';

export function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
}
