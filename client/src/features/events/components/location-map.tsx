/*
 * Leaflet map preview. Heavy (leaflet + its CSS): only ever imported lazily through
 * location-map-preview.tsx, never from the home or list pages.
 */
import { useEffect } from 'react';
import L from 'leaflet';
import { MapContainer, Marker, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { env } from '../../../config/env';
import type { Coordinates } from '../hooks/use-geocode';

export const NAIROBI: [number, number] = [-1.2921, 36.8219];
export const DEFAULT_ZOOM = 10;
export const FOUND_ZOOM = 11;

// A self-contained SVG pin: Leaflet's default marker images do not survive bundling.
const pin = L.divIcon({
  className: 'map-pin',
  html: '<svg viewBox="0 0 32 42" width="32" height="42" aria-hidden="true" focusable="false"><path d="M16 1C7.7 1 1 7.6 1 15.8 1 26.9 16 41 16 41s15-14.1 15-25.2C31 7.6 24.3 1 16 1z" fill="#c8102e" stroke="#fff" stroke-width="2"/><circle cx="16" cy="15.5" r="5.5" fill="#fff"/></svg>',
  iconSize: [32, 42],
  iconAnchor: [16, 41],
});

function Recenter({ center, zoom }: { center: [number, number]; zoom: number }) {
  const map = useMap();
  const [lat, lon] = center;
  useEffect(() => {
    // No zoom animation: a map removed mid-animation (e.g. the form is submitted right after the
    // place was found) makes Leaflet throw "Cannot read properties of undefined (reading '_leaflet_pos')".
    map.setView([lat, lon], zoom, { animate: false });
  }, [map, lat, lon, zoom]);
  return null;
}

export default function LocationMap({ coords }: { coords: Coordinates | null }) {
  const center: [number, number] = coords ? [coords.lat, coords.lon] : NAIROBI;
  const zoom = coords ? FOUND_ZOOM : DEFAULT_ZOOM;
  return (
    <MapContainer className="location-map__canvas" center={center} zoom={zoom} scrollWheelZoom={false} keyboard>
      <TileLayer url={env.tileUrl} attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors' />
      {coords ? <Marker position={center} icon={pin} interactive={false} keyboard={false} /> : null}
      <Recenter center={center} zoom={zoom} />
    </MapContainer>
  );
}
