import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogsForTests, switchLanguageForTests } from '../../../lib/i18n/catalogs-for-tests';
import { Footer } from './footer';

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await switchLanguageForTests('en');
});

const renderFooter = () =>
  render(
    <MemoryRouter>
      <Footer />
    </MemoryRouter>,
  );

describe('the footer', () => {
  it("names the current year in its copyright line, not the year it was built", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-01T09:00:00+03:00'));
    renderFooter();
    expect(screen.getByText('© 2031 Tukio. All rights reserved.')).toBeTruthy();
    cleanup();

    vi.setSystemTime(new Date('2032-06-15T12:00:00Z'));
    renderFooter();
    expect(screen.getByText('© 2032 Tukio. All rights reserved.')).toBeTruthy();
  });

  it('says it in Kiswahili too', async () => {
    await loadCatalogsForTests('layout');
    await switchLanguageForTests('sw');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-01T09:00:00+03:00'));
    renderFooter();
    await waitFor(() => expect(screen.getByText('© 2031 Tukio. Haki zote zimehifadhiwa.')).toBeTruthy());
  });
});
