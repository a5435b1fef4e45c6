/**
 * Readers for scraped event lists: a JSON array and iCalendar (RFC 5545). Both produce raw records
 * with dates already turned into the stored wall-clock convention (see event-dates.ts):
 * - a naive or floating time, or one with TZID=Africa/Nairobi, is kept as written;
 * - an instant (UTC `Z`, an offset, or another TZID) is converted to Nairobi wall-clock time (EAT, UTC+3),
 *   because every event is shown in Kenyan time.
 */

import { toWallClock as toNairobiWallClock } from '../../lib/event-clock.js';

export interface RawImportRecord {
  title?: string | undefined;
  description?: string | undefined;
  date?: Date | undefined;
  /** Why the date could not be read, when one was given. */
  dateError?: string | undefined;
  location?: string | undefined;
  image?: string | undefined;
  ticketPrice?: number | undefined;
  latitude?: number | undefined;
  longitude?: number | undefined;
}

const NAIROBI_ZONES = new Set(['africa/nairobi', 'eat', 'e. africa standard time', 'east africa time']);

function wallClock(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59)));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? date : undefined;
}

/** Offset (ms) of an IANA zone at an instant, from Intl; undefined for an unknown zone. */
function zoneOffsetMs(zone: string, at: Date): number | undefined {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(at);
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
    return asUtc - Math.floor(at.getTime() / 1000) * 1000;
  } catch {
    return undefined;
  }
}

/** A wall-clock time in `zone` as Nairobi wall-clock time; Nairobi (and unknown zones) unchanged. */
function fromZone(wall: Date, zone: string | undefined): Date {
  if (!zone || NAIROBI_ZONES.has(zone.trim().toLowerCase())) return wall;
  const first = zoneOffsetMs(zone, wall);
  if (first === undefined) return wall;
  const second = zoneOffsetMs(zone, new Date(wall.getTime() - first)) ?? first;
  return toNairobiWallClock(new Date(wall.getTime() - second));
}

/** JSON dates: `YYYY-MM-DD`, `YYYY-MM-DDTHH:mm[:ss]` (wall clock) or with `Z` / `±HH:mm` (an instant). */
export function parseImportDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, zone] = match;
  const wall = wallClock(Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  if (!wall || !zone) return wall;
  const offsetMinutes = /^z$/i.test(zone) ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  return toNairobiWallClock(new Date(wall.getTime() - offsetMinutes * 60_000));
}

function numberOrUndefined(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  // Scraped prices look like "KES 1,500" or "Ksh. 500".
  const cleaned = value.replace(/k(?:e)?sh?s?\.?|kes|,/gi, '').trim();
  if (cleaned === '' || !/^-?\d+(?:\.\d+)?$/.test(cleaned)) return undefined;
  return Number(cleaned);
}

const stringOrUndefined = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** A JSON array of events, or an object holding one under `events`. */
export function parseJsonEvents(text: string): RawImportRecord[] {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new Error('The file is neither valid JSON nor an iCalendar (.ics) file.');
  }
  const list = Array.isArray(data) ? data : Array.isArray((data as { events?: unknown })?.events) ? (data as { events: unknown[] }).events : undefined;
  if (!list) throw new Error('The JSON must be a list of events (or an object with an "events" list).');
  return list.map((item): RawImportRecord => {
    const record = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const rawDate = record.startDate ?? record.date;
    const date = parseImportDate(rawDate);
    return {
      title: stringOrUndefined(record.title),
      description: stringOrUndefined(record.description),
      date,
      dateError: rawDate !== undefined && !date ? 'date is not a valid date (YYYY-MM-DDTHH:mm)' : undefined,
      location: stringOrUndefined(record.location),
      image: stringOrUndefined(record.image),
      ticketPrice: numberOrUndefined(record.ticketPrice),
      latitude: numberOrUndefined(record.latitude),
      longitude: numberOrUndefined(record.longitude),
    };
  });
}

interface IcsProperty {
  name: string;
  params: Record<string, string>;
  value: string;
}

/** Unfolds continuation lines (a line starting with a space or tab continues the previous one). */
export function unfoldIcs(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

function parseIcsLine(line: string): IcsProperty | undefined {
  // The value starts at the first colon outside a quoted parameter value.
  let inQuotes = false;
  let colon = -1;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (char === '"') inQuotes = !inQuotes;
    else if (char === ':' && !inQuotes) {
      colon = i;
      break;
    }
  }
  if (colon < 0) return undefined;
  const [name = '', ...rawParams] = line.slice(0, colon).split(';');
  const params: Record<string, string> = {};
  for (const param of rawParams) {
    const eq = param.indexOf('=');
    if (eq > 0) params[param.slice(0, eq).toUpperCase()] = param.slice(eq + 1).replace(/^"|"$/g, '');
  }
  return { name: name.toUpperCase(), params, value: line.slice(colon + 1) };
}

const unescapeText = (value: string) => value.replace(/\\([\\;,nN])/g, (_match, char: string) => (char === 'n' || char === 'N' ? '\n' : char));

/** DTSTART forms: DATE, UTC (`…Z`), with TZID, or floating. */
export function parseIcsDate(property: IcsProperty): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/i.exec(property.value.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, utc] = match;
  const wall = wallClock(Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  if (!wall) return undefined;
  if (utc) return toNairobiWallClock(wall);
  return fromZone(wall, property.params.TZID);
}

/** Every VEVENT of an iCalendar file (properties of nested components such as VALARM are ignored). */
export function parseIcsEvents(text: string): RawImportRecord[] {
  const lines = unfoldIcs(text);
  if (!lines.some((line) => /^BEGIN:VCALENDAR$/i.test(line.trim()))) throw new Error('The file is not an iCalendar (.ics) file.');
  const records: RawImportRecord[] = [];
  const stack: string[] = [];
  let current: { props: IcsProperty[] } | undefined;
  for (const line of lines) {
    const property = parseIcsLine(line.trim());
    if (!property) continue;
    if (property.name === 'BEGIN') {
      const component = property.value.trim().toUpperCase();
      stack.push(component);
      if (component === 'VEVENT' && stack.length >= 1) current = { props: [] };
      continue;
    }
    if (property.name === 'END') {
      const component = stack.pop();
      if (component === 'VEVENT' && current) {
        records.push(toRecord(current.props));
        current = undefined;
      }
      continue;
    }
    if (current && stack[stack.length - 1] === 'VEVENT') current.props.push(property);
  }
  return records;
}

function toRecord(props: IcsProperty[]): RawImportRecord {
  const get = (name: string) => props.find((p) => p.name === name);
  const text = (name: string) => {
    const value = get(name)?.value;
    return value === undefined ? undefined : stringOrUndefined(unescapeText(value).trim());
  };
  const dtstart = get('DTSTART');
  const date = dtstart ? parseIcsDate(dtstart) : undefined;
  const [lat, lon] = (get('GEO')?.value ?? '').split(/[;,]/).map((part) => numberOrUndefined(part.trim()));
  const image =
    props.find((p) => p.name === 'IMAGE')?.value ??
    props.find((p) => p.name === 'ATTACH' && /^image\//i.test(p.params.FMTTYPE ?? ''))?.value;
  const url = text('URL');
  const description = [text('DESCRIPTION'), url ? `More information: ${url}` : undefined].filter(Boolean).join('\n\n');
  return {
    title: text('SUMMARY'),
    description: description || undefined,
    date,
    dateError: dtstart && !date ? 'DTSTART is not a valid date' : undefined,
    location: text('LOCATION'),
    image: image?.trim() || undefined,
    latitude: lat,
    longitude: lon,
  };
}

/** iCalendar when the file says so (by name or content), otherwise JSON. */
export function parseEventFile(text: string, name = ''): RawImportRecord[] {
  const looksIcs = /\.ics$/i.test(name) || /^\s*(\uFEFF)?BEGIN:VCALENDAR/i.test(text);
  return looksIcs ? parseIcsEvents(text) : parseJsonEvents(text);
}
