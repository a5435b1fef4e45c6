import { afterAll, beforeAll, expect, it } from 'vitest';
import { displayName } from './display-name';
import { loadCatalogsForTests, switchLanguageForTests } from './i18n/catalogs-for-tests';
import { t } from './i18n/runtime';

beforeAll(() => loadCatalogsForTests('common'));
afterAll(() => switchLanguageForTests('en'));

it('names an erased account "Deleted user" in English and "Mtumiaji aliyefutwa" in Kiswahili, and anyone else by their username', async () => {
  const erased = 'deleted-0123456789abcdef01234567';
  await switchLanguageForTests('en');
  expect(displayName(t, erased)).toBe('Deleted user');
  expect(displayName(t, 'deleted-fan')).toBe('deleted-fan');
  expect(displayName(t, 'wanjiku')).toBe('wanjiku');
  expect(displayName(t, undefined)).toBeUndefined();
  await switchLanguageForTests('sw');
  expect(displayName(t, erased)).toBe('Mtumiaji aliyefutwa');
});
