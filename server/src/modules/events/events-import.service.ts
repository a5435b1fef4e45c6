import { createHash } from 'node:crypto';
import { EVENT_DESCRIPTION_MAX, EVENT_LOCATION_MAX, EVENT_TITLE_MAX, TICKET_PRICE_MAX } from '@tukio/shared/limits';
import type { Database } from '../../db/database.js';
import { SYSTEM_USER_ID } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import type { GeocodingService } from '../geocoding/index.js';
import { parseEventFile, type RawImportRecord } from './import-formats.js';
import { createEventsRepository } from './events.repository.js';
import { normalizeImageUrl } from './events.service.js';

export interface ImportResult {
  created: number;
  /** Already imported (same title, date and location). */
  skipped: number;
  invalid: number;
  problems: { index: number; reason: string }[];
}

/** Scraped text is often longer than our caps; it is cut (not refused), since an admin reviews it anyway. */
function fit(value: string, max: number): string {
  const clean = value.replaceAll('\u0000', '').trim();
  return clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean;
}

/** Same title, date and location (case and spacing ignored) is the same event. */
export function importKey(title: string, startsAt: Date, location: string): string {
  const norm = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase();
  return createHash('sha256').update(`${norm(title)}\n${startsAt.toISOString()}\n${norm(location)}`).digest('hex');
}

const inRange = (value: number | undefined, limit: number) => value !== undefined && Number.isFinite(value) && Math.abs(value) <= limit;

/**
 * Creates scraped events as pending events of the system user, so an admin reviews them on /admpst.
 * Importing the same file again creates nothing new.
 */
export function createEventsImportService(deps: { db: Database; geocoding: GeocodingService; publicUrl: string }) {
  const repo = createEventsRepository(deps.db);

  async function importRecord(record: RawImportRecord): Promise<'created' | 'skipped' | string> {
    if (!record.title) return 'title is missing';
    if (record.dateError) return record.dateError;
    if (!record.date) return 'date is missing';
    if (!record.location) return 'location is missing';
    const title = fit(record.title, EVENT_TITLE_MAX);
    const location = fit(record.location, EVENT_LOCATION_MAX);
    let image: string | null = null;
    try {
      image = normalizeImageUrl(record.image, deps.publicUrl);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // An image we cannot serve safely is dropped; the event itself is still worth reviewing.
    }
    const price = Math.round(Math.min(Math.max(record.ticketPrice ?? 0, 0), TICKET_PRICE_MAX));
    let latitude = inRange(record.latitude, 90) ? record.latitude! : null;
    let longitude = inRange(record.longitude, 180) ? record.longitude! : null;
    if (latitude === null || longitude === null) {
      const found = await deps.geocoding.geocode(location);
      latitude = found?.lat ?? null;
      longitude = found?.lon ?? null;
    }
    const created = await repo.insertImported({
      title,
      description: fit(record.description ?? '', EVENT_DESCRIPTION_MAX),
      startsAt: record.date,
      location,
      image,
      isPaid: price > 0,
      ticketPrice: price,
      latitude,
      longitude,
      status: 'pending',
      userId: SYSTEM_USER_ID,
      importKey: importKey(title, record.date, location),
    });
    return created ? 'created' : 'skipped';
  }

  async function importRecords(records: RawImportRecord[]): Promise<ImportResult> {
    const result: ImportResult = { created: 0, skipped: 0, invalid: 0, problems: [] };
    for (const [index, record] of records.entries()) {
      const outcome = await importRecord(record);
      if (outcome === 'created') result.created += 1;
      else if (outcome === 'skipped') result.skipped += 1;
      else {
        result.invalid += 1;
        result.problems.push({ index, reason: outcome });
      }
    }
    return result;
  }

  return {
    /** A JSON list or an .ics calendar, told apart by `name` (a file name or URL) or the content. */
    importText: (text: string, name = ''): Promise<ImportResult> => importRecords(parseEventFile(text, name)),
  };
}
