import { describe, expect, it } from 'vitest';
import { jobPollSeconds } from '../src/lib/job-queue.js';

describe('how often job workers poll', () => {
  it('polls at the retry delay, no faster than every 2 s and no slower than every 10 s', () => {
    // The default retry delay (JOBS_RETRY_DELAY_SECONDS=10): five times fewer polls than the former 2 s on every instance.
    expect(jobPollSeconds(10)).toBe(10);
    expect(jobPollSeconds(5)).toBe(5);
    // Tests retry after 1 s: still found within 2 s.
    expect(jobPollSeconds(1)).toBe(2);
    expect(jobPollSeconds(3600)).toBe(10);
  });
});
