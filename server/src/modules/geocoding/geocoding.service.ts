import type { Logger } from '../../lib/logger.js';
import { kenyaPlaces, type Place } from './kenya-places.js';

export interface GeocodeResult {
  lat: number;
  lon: number;
  name: string;
}

/** Lower case, accents and punctuation dropped, single spaces, padded so `includes(' x ')` matches whole words. */
function normalize(value: string): string {
  const words = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return ` ${words} `;
}

interface IndexedName {
  key: string;
  place: Place;
}

const index: IndexedName[] = kenyaPlaces
  .flatMap((place) => [place.name, ...(place.aliases ?? [])].map((name) => ({ key: normalize(name), place })))
  .filter((entry) => entry.key.trim().length > 0)
  // Most specific first: by the place's full name, so "KICC, Nairobi" is the convention centre (its full
  // name is long even though the alias is short) and "Nyali Beach" wins over "Nyali".
  .sort((a, b) => b.place.name.length - a.place.name.length || b.key.length - a.key.length);

/** Offline lookup: the most specific built-in place whose name (or an alias) appears, as whole words, in the text. */
export function geocodeOffline(text: string): GeocodeResult | undefined {
  const haystack = normalize(text);
  if (haystack.trim() === '') return undefined;
  const hit = index.find((entry) => haystack.includes(entry.key));
  return hit ? { lat: hit.place.lat, lon: hit.place.lon, name: hit.place.name } : undefined;
}

const CACHE_SIZE = 500;

export interface GeocodingServiceDeps {
  /** A Nominatim-style `/search` URL; when unset only the built-in list is used. */
  url?: string | undefined;
  timeoutMs?: number;
  logger?: Logger;
  fetch?: typeof fetch;
}

export function createGeocodingService(deps: GeocodingServiceDeps = {}) {
  const cache = new Map<string, GeocodeResult | null>();
  const doFetch = deps.fetch ?? fetch;

  function remember(key: string, value: GeocodeResult | null) {
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }

  async function geocodeOnline(query: string): Promise<GeocodeResult | undefined> {
    if (!deps.url) return undefined;
    const key = normalize(query);
    if (cache.has(key)) return cache.get(key) ?? undefined;
    const url = new URL(deps.url);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('limit', '1');
    url.searchParams.set('countrycodes', 'ke');
    try {
      const response = await doFetch(url, {
        headers: { accept: 'application/json', 'user-agent': 'Tukio events (geocoding event locations)' },
        signal: AbortSignal.timeout(deps.timeoutMs ?? 3000),
      });
      if (!response.ok) throw new Error(`geocoder answered ${response.status}`);
      const body = (await response.json()) as unknown;
      const first = Array.isArray(body) ? (body[0] as Record<string, unknown> | undefined) : undefined;
      const lat = Number(first?.lat);
      const lon = Number(first?.lon);
      const found =
        first && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180
          ? { lat, lon, name: typeof first.display_name === 'string' ? first.display_name.slice(0, 200) : query }
          : null;
      remember(key, found);
      return found ?? undefined;
    } catch (error) {
      // Not cached: a timeout or outage should not hide the place once the geocoder is back.
      deps.logger?.error(`online geocoding failed, using the built-in list: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  return {
    /** The online geocoder when configured, else (or when it fails or finds nothing) the built-in list. */
    async geocode(query: string): Promise<GeocodeResult | undefined> {
      const trimmed = query.trim();
      if (!trimmed) return undefined;
      return (await geocodeOnline(trimmed)) ?? geocodeOffline(trimmed);
    },
  };
}

export type GeocodingService = ReturnType<typeof createGeocodingService>;
