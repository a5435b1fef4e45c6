import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { Coordinates, GeocodeStatus } from '../hooks/use-geocode';
import { t, useT } from '../../../lib/i18n';

const LocationMap = lazy(() => import('./location-map'));

/** A map that fails to load must not take the form down with it. */
class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p className="location-map__fallback">{t('events.mapUnavailable')}</p> : this.props.children;
  }
}

const statusText: Record<GeocodeStatus, (place: string | null) => string> = {
  idle: () => t('events.mapIdle'),
  searching: () => t('events.mapSearching'),
  found: (place) => (place ? t('events.mapPinnedNear', { place }) : t('events.mapPinnedSaved')),
  'not-found': () => t('events.mapNotFound'),
  failed: () => t('events.mapFailed'),
};

/** Map preview of the event location with a text description of what it shows. */
export function LocationMapPreview({ coords, status, place }: { coords: Coordinates | null; status: GeocodeStatus; place: string | null }) {
  const t = useT();
  return (
    <figure className="location-map">
      <div className="location-map__frame">
        <MapBoundary>
          <Suspense fallback={<div className="location-map__loading">{t('events.loadingMap')}</div>}>
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
