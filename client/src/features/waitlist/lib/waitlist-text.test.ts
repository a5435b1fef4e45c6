import { afterAll, describe, expect, it } from 'vitest';
import { switchLanguageForTests } from '../../../lib/i18n/catalogs-for-tests';
import { formatNairobiTime } from './waitlist-text';

afterAll(() => switchLanguageForTests('en'));

// 21:30Z on 31 December is 00:30 on 1 January in Nairobi (UTC+3).
const NOW = new Date('2026-12-31T12:00:00.000Z');

describe('formatNairobiTime (offer deadlines, real instants)', () => {
  it('the time alone on the same Nairobi day', async () => {
    await switchLanguageForTests('en');
    expect(formatNairobiTime('2026-12-31T17:47:00.000Z', NOW)).toBe('20:47');
    await switchLanguageForTests('sw');
    expect(formatNairobiTime('2026-12-31T17:47:00.000Z', NOW)).toBe('20:47');
  });

  it('with the day once it is after midnight in Nairobi (here, a new year)', async () => {
    await switchLanguageForTests('en');
    expect(formatNairobiTime('2026-12-31T21:30:00.000Z', NOW)).toBe('Fri, 1 Jan, 00:30');
    await switchLanguageForTests('sw');
    expect(formatNairobiTime('2026-12-31T21:30:00.000Z', NOW)).toBe('Ijumaa, 1 Jan, 00:30');
  });

  it('nothing for a missing or unreadable value', () => {
    expect(formatNairobiTime(null, NOW)).toBe('');
    expect(formatNairobiTime('soon', NOW)).toBe('');
  });
});
