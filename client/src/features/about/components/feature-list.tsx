import type { ReactElement } from 'react';
import type { Feature } from '../content';
import { useT } from '../../../lib/i18n';

/* Simple 24×24 line icons, one per feature (same order as `keyFeatures`). */
const icons: ReactElement[] = [
  // discover: compass
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="m15.5 8.5-2 5-5 2 2-5z" />
  </>,
  // plan: calendar
  <>
    <rect x="3.5" y="5" width="17" height="15" rx="2" />
    <path d="M3.5 10h17M8 3v4M16 3v4" />
  </>,
  // tickets: ticket stub
  <>
    <path d="M3.5 7.5h17v3a1.8 1.8 0 0 0 0 3.6v3.4h-17v-3.4a1.8 1.8 0 0 0 0-3.6z" />
    <path d="M14 8v9" strokeDasharray="1.5 1.5" />
  </>,
  // payments: shield with tick
  <>
    <path d="M12 3 5 6v5c0 4.5 3 8 7 10 4-2 7-5.5 7-10V6z" />
    <path d="m9 12 2 2 4-4" />
  </>,
  // forums: speech bubbles
  <>
    <path d="M4 5h11v8H8l-4 3z" />
    <path d="M15 9h5v8l-3-2h-6v-2" />
  </>,
  // reviews: star
  <path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />,
];

export function FeatureList({ features }: { features: readonly Feature[] }) {
  const t = useT();
  return (
    <ul className="feature-grid">
      {features.map((feature, index) => (
        <li className="feature-card" key={feature.title}>
          <span className="feature-card__icon" aria-hidden="true">
            <svg
              viewBox="0 0 24 24"
              width="24"
              height="24"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
              focusable="false"
            >
              {icons[index % icons.length]}
            </svg>
          </span>
          <h3 className="feature-card__title">{t(feature.title)}</h3>
          <p>{t(feature.description)}</p>
        </li>
      ))}
    </ul>
  );
}
