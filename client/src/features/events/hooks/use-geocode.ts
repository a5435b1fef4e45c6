import { useCallback, useRef, useState } from 'react';
import { geocode, type GeocodeResult } from '../api/events-api';

export interface Coordinates {
  lat: number;
  lon: number;
}

export type GeocodeStatus = 'idle' | 'searching' | 'found' | 'not-found' | 'failed';

/**
 * Looks a typed location up with GET /api/geocode once the field is left. Repeating the same text
 * does not call the server again; a newer lookup wins over an older one still in flight.
 */
export function useGeocode(initial: Coordinates | null) {
  const [coords, setCoords] = useState<Coordinates | null>(initial);
  const [status, setStatus] = useState<GeocodeStatus>(initial ? 'found' : 'idle');
  const [place, setPlace] = useState<string | null>(null);
  const lastQuery = useRef<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  const lookup = useCallback(async (text: string) => {
    const query = text.trim();
    if (query === lastQuery.current) return;
    lastQuery.current = query;
    controller.current?.abort();
    if (query === '') {
      setCoords(null);
      setStatus('idle');
      setPlace(null);
      return;
    }
    const current = new AbortController();
    controller.current = current;
    setStatus('searching');
    try {
      const found: GeocodeResult | null = await geocode(query, current.signal);
      if (current.signal.aborted) return;
      setCoords(found ? { lat: found.lat, lon: found.lon } : null);
      setPlace(found?.name ?? null);
      setStatus(found ? 'found' : 'not-found');
    } catch {
      if (current.signal.aborted) return;
      // Let the next blur try again.
      lastQuery.current = null;
      setCoords(null);
      setPlace(null);
      setStatus('failed');
    }
  }, []);

  /** The text changed: coordinates of the old text no longer apply. */
  const invalidate = useCallback(() => {
    controller.current?.abort();
    lastQuery.current = null;
    setCoords(null);
    setPlace(null);
    setStatus('idle');
  }, []);

  return { coords, status, place, lookup, invalidate };
}
