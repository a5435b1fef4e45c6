/*
 * What the ticket widget's two halves say to each other through postMessage (docs/decisions/widget.md):
 * widget.js on the organiser's page (src/widget/widget.ts) and the framed page /embed/events/:id
 * (src/app/routes/embed-event.tsx). Only sizes cross: never a token, a phone number or a ticket link.
 * Each side accepts a message only in these exact shapes, from the window it expects (checked by the caller:
 * event.source, and on the host's side event.origin too). No imports: widget.js stays a few kilobytes.
 */

/** Marks both halves' messages, so neither mistakes another script's messages for the widget's. */
export const WIDGET_CHANNEL = 'tukio-widget';

/** Framed page → host page: the height the page needs, in CSS pixels. */
export interface HeightMessage {
  channel: typeof WIDGET_CHANNEL;
  type: 'height';
  height: number;
}

/** Host page → framed page: "say your height again" (the host's width changed). */
export interface MeasureMessage {
  channel: typeof WIDGET_CHANNEL;
  type: 'measure';
}

/** Heights outside these bounds are clamped: a broken page cannot make the frame vanish or take a mile. */
export const MIN_FRAME_HEIGHT = 120;
export const MAX_FRAME_HEIGHT = 4000;

const isRecord = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null && !Array.isArray(data);

export function isHeightMessage(data: unknown): data is HeightMessage {
  return (
    isRecord(data) &&
    Object.keys(data).length === 3 &&
    data.channel === WIDGET_CHANNEL &&
    data.type === 'height' &&
    typeof data.height === 'number' &&
    Number.isFinite(data.height)
  );
}

export function isMeasureMessage(data: unknown): data is MeasureMessage {
  return isRecord(data) && Object.keys(data).length === 2 && data.channel === WIDGET_CHANNEL && data.type === 'measure';
}

export const heightMessage = (height: number): HeightMessage => ({ channel: WIDGET_CHANNEL, type: 'height', height: Math.ceil(height) });
export const measureMessage = (): MeasureMessage => ({ channel: WIDGET_CHANNEL, type: 'measure' });

/** The frame's height for a reported one: whole pixels within the bounds. */
export const frameHeight = (reported: number): number => Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(reported)));

/** The widget's languages (the app's own two). */
export type WidgetLanguage = 'en' | 'sw';

/**
 * The widget's language: the snippet's data-lang when it names one of ours, else the visitor's browser
 * (the first of its languages that is Kiswahili or English), else English.
 */
export function pickWidgetLanguage(dataLang: string | null | undefined, browserLanguages: readonly string[]): WidgetLanguage {
  const asked = dataLang?.trim().toLowerCase().split('-')[0];
  if (asked === 'sw' || asked === 'en') return asked;
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'sw' || primary === 'en') return primary;
  }
  return 'en';
}

/** An event id as the snippet may carry it (ours are 24 hex digits; anything URL-unsafe is refused). */
export const isWidgetEventId = (id: string | null | undefined): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id);
