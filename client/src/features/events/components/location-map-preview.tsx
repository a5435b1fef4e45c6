import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { Coordinates, GeocodeStatus } from '../hooks/use-geocode';

const LocationMap = lazy(() => import('./location-map'));

/** A map that fails to load must not take the form down with it. */
class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p className="location-map__fallback">The map preview is unavailable right now.</p> : this.props.children;
  }
}

const statusText: Record<GeocodeStatus, (place: string | null) => string> = {
  idle: () => 'The map shows Nairobi until you enter a location.',
  searching: () => 'Finding the location on the map…',
  found: (place) => (place ? `Pinned near ${place}.` : 'Pinned at the saved location.'),
  'not-found': () => 'We could not place this location on the map. You can still post the event.',
  failed: () => 'The location could not be looked up right now. You can still post the event.',
};

/** Map preview of the event location with a text description of what it shows. */
export function LocationMapPreview({ coords, status, place }: { coords: Coordinates | null; status: GeocodeStatus; place: string | null }) {
  return (
    <figure className="location-map">
      <div className="location-map__frame">
        <MapBoundary>
          <Suspense fallback={<div className="location-map__loading">Loading map…</div>}>
            <LocationMap coords={coords} />
          </Suspense>
        </MapBoundary>
      </div>
      <figcaption className="location-map__caption" aria-live="polite">
        {statusText[status](place)}
      </figcaption>
    </figure>
  );
}
