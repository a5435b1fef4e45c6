import type { SharePlatform } from '../api/events-api';

export interface ShareTarget {
  platform: SharePlatform;
  label: string;
  /** Address opened in a new tab. */
  href: string;
  /** Instagram has no web share link: the event link is copied first so it can be pasted there. */
  copiesLink?: boolean;
}

/** Share links for one event page. `pageUrl` is the absolute address of /events/{id}. */
export function shareTargets(title: string, pageUrl: string): ShareTarget[] {
  const text = `${title} on Tukio`;
  return [
    {
      platform: 'whatsapp',
      label: 'WhatsApp',
      href: `https://wa.me/?text=${encodeURIComponent(`${text}: ${pageUrl}`)}`,
    },
    {
      platform: 'twitter',
      label: 'X (Twitter)',
      href: `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(pageUrl)}`,
    },
    {
      platform: 'instagram',
      label: 'Instagram',
      href: 'https://www.instagram.com/',
      copiesLink: true,
    },
  ];
}

/** Google Maps search for a free-text venue. */
export function mapsSearchUrl(location: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(location)}`;
}
