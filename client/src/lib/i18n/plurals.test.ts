import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogsForTests, switchLanguageForTests } from './catalogs-for-tests';
import { t } from './runtime';

beforeAll(() => loadCatalogsForTests('tickets'));
afterAll(() => switchLanguageForTests('en'));

// Plural categories come from Intl.PluralRules for the reader's language; '#' is the count.
describe('catalog plurals', () => {
  it.each([
    [0, '0 tickets', 'tiketi 0'],
    [1, '1 ticket', 'tiketi 1'],
    [2, '2 tickets', 'tiketi 2'],
    [1500, '1500 tickets', 'tiketi 1500'],
  ])('a count of tickets: %i', async (count, english, kiswahili) => {
    await switchLanguageForTests('en');
    expect(t('tickets.ticketCount', { count })).toBe(english);
    await switchLanguageForTests('sw');
    expect(t('tickets.ticketCount', { count })).toBe(kiswahili);
  });

  it('one ticket is "this ticket", more are counted', async () => {
    await switchLanguageForTests('en');
    expect(t('tickets.cancelCountTickets', { count: 1 })).toBe('Cancel this ticket?');
    expect(t('tickets.cancelCountTickets', { count: 3 })).toBe('Cancel 3 tickets?');
    await switchLanguageForTests('sw');
    expect(t('tickets.cancelCountTickets', { count: 1 })).toBe('Ughairi tiketi hii?');
    expect(t('tickets.cancelCountTickets', { count: 3 })).toBe('Ughairi tiketi 3?');
  });
});
