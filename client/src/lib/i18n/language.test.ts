import { afterEach, describe, expect, it } from 'vitest';
import { initialLanguage, LANGUAGE_STORAGE_KEY } from './language';

describe('initialLanguage', () => {
  afterEach(() => {
    window.localStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it("takes the address's ?lang= (the ticket widget's frame) over the device's stored choice", () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    window.history.replaceState(null, '', '/embed/events/0123456789abcdef01234567?lang=sw');
    expect(initialLanguage()).toBe('sw');
  });

  it('ignores a ?lang= that is not one of ours', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'sw');
    window.history.replaceState(null, '', '/embed/events/0123456789abcdef01234567?lang=fr');
    expect(initialLanguage()).toBe('sw');
  });
});
