/**
 * The client's time rule (src/lib/event-clock.ts: the event page shows reviews and forums once an
 * event has started; date inputs start at today in Kenya) must be the server's rule
 * (server/src/lib/event-clock.ts: registration closes, reviews open, listings start at today's
 * midnight), or the page offers what the API refuses. A unit test: no server or browser needed.
 */
import { describe, expect, it } from 'vitest';
import * as server from '../../server/src/lib/event-clock.js';
import * as client from '../src/lib/event-clock.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A 19:00 Nairobi event as the API sends it (the wall-clock time written as UTC); it really starts at 16:00Z. */
const DATE = '2031-06-01T19:00:00.000Z';
const REAL_START = Date.parse('2031-06-01T16:00:00Z');

describe('client and server event clocks', () => {
  it('agree whether an event has started a minute before and after the start and 3 hours ± 1 minute after', () => {
    const cases = [
      { label: 'a minute before', offset: -MINUTE, started: false },
      { label: 'at the start instant', offset: 0, started: false },
      { label: 'a minute after', offset: MINUTE, started: true },
      { label: '3 hours minus 1 minute after', offset: 3 * HOUR - MINUTE, started: true },
      { label: '3 hours plus 1 minute after', offset: 3 * HOUR + MINUTE, started: true },
    ];
    for (const { label, offset, started } of cases) {
      const now = new Date(REAL_START + offset);
      expect(client.hasStarted(DATE, now), `client, ${label}`).toBe(started);
      expect(server.hasStarted(new Date(DATE), now), `server, ${label}`).toBe(started);
    }
  });

  it('agree on today in Kenya around midnight in Nairobi (21:00Z)', () => {
    for (const real of ['2031-06-01T20:59:00Z', '2031-06-01T21:00:00Z', '2031-06-01T21:01:00Z']) {
      const now = new Date(real);
      expect(client.todayInKenya(now), real).toBe(server.startOfTodayWallClock(now).toISOString().slice(0, 10));
    }
    expect(client.todayInKenya(new Date('2031-06-01T20:59:00Z'))).toBe('2031-06-01');
    expect(client.todayInKenya(new Date('2031-06-01T21:00:00Z'))).toBe('2031-06-02');
  });

  it('read an unreadable or missing date as not started', () => {
    expect(client.hasStarted(undefined, new Date(REAL_START))).toBe(false);
    expect(client.hasStarted('not a date', new Date(REAL_START))).toBe(false);
  });
});
