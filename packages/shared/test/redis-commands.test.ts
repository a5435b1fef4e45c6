import { ClientOfflineError, ErrorReply } from 'redis';
import { describe, expect, it } from 'vitest';
import { RedisUnavailableError, redisCommands } from '../src/node/redis.js';

/** What counts as an outage (answered by each caller's fallback) and what is Redis's own answer (kept as it is). */
const failingWith = (error: Error) => redisCommands({ sendCommand: () => Promise.reject(error) }).sendCommand(['PING']);

describe('redisCommands', () => {
  it('turns a lost or refused connection and "not now" replies into RedisUnavailableError', async () => {
    for (const error of [new ClientOfflineError(), new Error('Socket closed unexpectedly'), new ErrorReply('LOADING Redis is loading the dataset in memory'), new ErrorReply('BUSY Redis is busy running a script')]) {
      await expect(failingWith(error)).rejects.toBeInstanceOf(RedisUnavailableError);
    }
  });

  it('keeps the replies a caller handles itself (NOSCRIPT runs the script whole) or that name a bug', async () => {
    for (const message of ['NOSCRIPT No matching script', 'WRONGTYPE Operation against a key holding the wrong kind of value']) {
      const reply = new ErrorReply(message);
      await expect(failingWith(reply)).rejects.toBe(reply);
    }
  });

  it('passes replies through', async () => {
    await expect(redisCommands({ sendCommand: async () => 'PONG' }).sendCommand(['PING'])).resolves.toBe('PONG');
  });
});
