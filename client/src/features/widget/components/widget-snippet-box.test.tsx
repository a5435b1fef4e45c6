import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogsForTests, switchLanguageForTests } from '../../../lib/i18n/catalogs-for-tests';
import { WidgetSnippetBox, widgetSnippet } from './widget-snippet-box';

const EVENT_ID = 'c'.repeat(24);

afterEach(async () => {
  cleanup();
  await switchLanguageForTests('en');
});

describe('"Sell on your website"', () => {
  it('writes the snippet with data-lang only when a language is fixed', () => {
    expect(widgetSnippet('https://tukio.example', EVENT_ID, 'auto')).toBe(`<script src="https://tukio.example/widget.js" data-event="${EVENT_ID}"></script>`);
    expect(widgetSnippet('https://tukio.example', EVENT_ID, 'sw')).toBe(`<script src="https://tukio.example/widget.js" data-event="${EVENT_ID}" data-lang="sw"></script>`);
  });

  it('copies the chosen snippet, and says so', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<WidgetSnippetBox eventId={EVENT_ID} />);
    fireEvent.change(screen.getByLabelText('Language of the widget'), { target: { value: 'en' } });
    fireEvent.click(screen.getByRole('button', { name: 'Copy the code' }));
    await screen.findByText('Copied.');
    expect(writeText).toHaveBeenCalledWith(`<script src="${window.location.origin}/widget.js" data-event="${EVENT_ID}" data-lang="en"></script>`);
  });

  it('tells the organiser to copy by hand when the browser refuses', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) }, configurable: true });
    render(<WidgetSnippetBox eventId={EVENT_ID} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy the code' }));
    await screen.findByText('Could not copy: select the code and copy it yourself.');
  });

  it('speaks Kiswahili', async () => {
    await loadCatalogsForTests('widget');
    await switchLanguageForTests('sw');
    render(<WidgetSnippetBox eventId={EVENT_ID} />);
    await waitFor(() => expect(screen.getByRole('region', { name: 'Uza kwenye tovuti yako' })).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Nakili msimbo' })).toBeTruthy();
    expect(screen.getByLabelText('Lugha ya kidirisha')).toBeTruthy();
  });
});
