import type { ReactElement } from 'react';
import { socialLinks, type SocialLink } from '../config/social';
import { useT } from '../lib/i18n';

/* Simple hand-drawn glyphs (24×24, currentColor). */
const icons: Record<SocialLink['name'], ReactElement> = {
  Facebook: (
    <path d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.6-1.5h1.6V4.4a21 21 0 0 0-2.4-.1c-2.4 0-4 1.4-4 4.1v2.1H7.7v3h2.6V21z" />
  ),
  'X (Twitter)': (
    <path d="M4 4h4.6l3.9 5.4L17.2 4h2.3l-6 6.8L20.3 20h-4.6l-4.2-5.8L6.4 20H4.1l6.3-7.2zm3 1.4 9.5 13.2h1.3L8.3 5.4z" />
  ),
  Instagram: (
    <>
      <rect x="3.5" y="3.5" width="17" height="17" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="17.2" cy="6.8" r="1.2" />
    </>
  ),
  LinkedIn: (
    <path d="M4.5 9h3.2v11H4.5zm1.6-5.2a1.9 1.9 0 1 1 0 3.8 1.9 1.9 0 0 1 0-3.8M10 9h3v1.6c.5-.9 1.6-1.9 3.4-1.9 3.3 0 3.9 2.1 3.9 5V20h-3.2v-5.5c0-1.3 0-3-1.8-3s-2.1 1.4-2.1 2.9V20H10z" />
  ),
};

interface SocialLinksProps {
  /** Accessible name of the list's navigation landmark. */
  label?: string;
  /** Show the network name next to the icon. */
  showNames?: boolean;
  className?: string;
}

export function SocialLinks({ label, showNames = false, className }: SocialLinksProps) {
  const t = useT();
  return (
    <nav aria-label={label ?? t('common.socialMedia')} className={className}>
      <ul className={`social-links${showNames ? ' social-links--named' : ''}`}>
        {socialLinks.map((link) => (
          <li key={link.name}>
            <a
              className="social-links__link"
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={showNames ? undefined : t('common.tukioOn', { network: link.name })}
            >
              <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false">
                {icons[link.name]}
              </svg>
              {showNames ? (
                <span>
                  {link.name}
                  <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
                </span>
              ) : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
