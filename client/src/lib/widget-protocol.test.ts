import { describe, expect, it } from 'vitest';
import { frameHeight, heightMessage, isHeightMessage, isMeasureMessage, isWidgetEventId, measureMessage, pickWidgetLanguage } from './widget-protocol';

describe('the ticket widget messages', () => {
  it('accepts a height only in its exact shape', () => {
    expect(isHeightMessage(heightMessage(512.2))).toBe(true);
    expect(heightMessage(512.2)).toEqual({ channel: 'tukio-widget', type: 'height', height: 513 });
    expect(isHeightMessage({ channel: 'tukio-widget', type: 'height', height: '512' })).toBe(false);
    expect(isHeightMessage({ channel: 'tukio-widget', type: 'height', height: Number.NaN })).toBe(false);
    expect(isHeightMessage({ channel: 'other', type: 'height', height: 5 })).toBe(false);
    // Anything riding along (a token, a phone) makes it not ours.
    expect(isHeightMessage({ channel: 'tukio-widget', type: 'height', height: 5, token: 'x' })).toBe(false);
    expect(isHeightMessage(null)).toBe(false);
    expect(isHeightMessage([1])).toBe(false);
    expect(isHeightMessage('tukio-widget')).toBe(false);
  });

  it('accepts "measure" only in its exact shape', () => {
    expect(isMeasureMessage(measureMessage())).toBe(true);
    expect(isMeasureMessage({ channel: 'tukio-widget', type: 'measure', extra: 1 })).toBe(false);
    expect(isMeasureMessage({ channel: 'tukio-widget', type: 'height' })).toBe(false);
    expect(isMeasureMessage(undefined)).toBe(false);
  });

  it('keeps the frame between its bounds, in whole pixels', () => {
    expect(frameHeight(0)).toBe(120);
    expect(frameHeight(-50)).toBe(120);
    expect(frameHeight(480.3)).toBe(481);
    expect(frameHeight(1e9)).toBe(4000);
  });

  it("speaks the snippet's language, else the visitor's browser's, else English", () => {
    expect(pickWidgetLanguage('sw', ['en-GB'])).toBe('sw');
    expect(pickWidgetLanguage(' SW-KE ', [])).toBe('sw');
    expect(pickWidgetLanguage('en', ['sw-KE'])).toBe('en');
    expect(pickWidgetLanguage(null, ['fr-FR', 'sw-KE', 'en'])).toBe('sw');
    expect(pickWidgetLanguage('fr', ['de-DE', 'en-US'])).toBe('en');
    expect(pickWidgetLanguage(undefined, ['fr'])).toBe('en');
  });

  it('takes only URL-safe event ids', () => {
    expect(isWidgetEventId('0123456789abcdef01234567')).toBe(true);
    expect(isWidgetEventId('')).toBe(false);
    expect(isWidgetEventId('../admin')).toBe(false);
    expect(isWidgetEventId('a?b=c')).toBe(false);
    expect(isWidgetEventId(null)).toBe(false);
  });
});
