import { notify } from '../../../lib/notify';
import { trackShare, type SharePlatform } from '../api/events-api';
import { shareTargets } from '../lib/share';
import { useT } from '../../../lib/i18n';

const icons: Record<SharePlatform, string> = {
  whatsapp:
    'M12 3a9 9 0 0 0-7.8 13.5L3 21l4.6-1.2A9 9 0 1 0 12 3m0 1.6a7.4 7.4 0 1 1-3.8 13.8l-.3-.2-2.7.7.7-2.6-.2-.3A7.4 7.4 0 0 1 12 4.6M8.9 7.8c-.2 0-.5 0-.7.3-.3.3-1 1-1 2.3s1 2.7 1.1 2.9c.2.2 2 3 4.8 4.2 2.3.9 2.8.7 3.3.7.5-.1 1.6-.7 1.8-1.3s.2-1.2.2-1.3l-.5-.3-1.7-.8c-.2-.1-.4-.1-.6.1l-.8 1c-.1.2-.3.2-.5.1-.3-.1-1.1-.4-2-1.3-.8-.7-1.3-1.5-1.4-1.8-.2-.3 0-.4.1-.5l.4-.5.3-.4v-.5l-.8-1.9c-.2-.5-.4-.4-.6-.4z',
  twitter: 'M4 4h4.6l3.9 5.4L17.2 4h2.3l-6 6.8L20.3 20h-4.6l-4.2-5.8L6.4 20H4.1l6.3-7.2zm3 1.4 9.5 13.2h1.3L8.3 5.4z',
  instagram:
    'M8 3.5h8A4.5 4.5 0 0 1 20.5 8v8a4.5 4.5 0 0 1-4.5 4.5H8A4.5 4.5 0 0 1 3.5 16V8A4.5 4.5 0 0 1 8 3.5m0 2A2.5 2.5 0 0 0 5.5 8v8A2.5 2.5 0 0 0 8 18.5h8a2.5 2.5 0 0 0 2.5-2.5V8A2.5 2.5 0 0 0 16 5.5zm4 2.5a4 4 0 1 1 0 8 4 4 0 0 1 0-8m0 2a2 2 0 1 0 0 4 2 2 0 0 0 0-4m4.6-3.2a1 1 0 1 1 0 2 1 1 0 0 1 0-2',
};

async function copyLink(url: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(url);
    return true;
  } catch {
    return false;
  }
}

/** WhatsApp, X and Instagram share links; each use is counted by the server (share-track). */
export function ShareButtons({ eventId, title, pageUrl }: { eventId: string; title: string; pageUrl: string }) {
  const t = useT();
  const handleShare = (platform: SharePlatform, copiesLink: boolean) => {
    // Counting is best effort: the share itself must never fail because of it.
    trackShare(eventId, platform).catch(() => undefined);
    if (copiesLink) {
      void copyLink(pageUrl).then((copied) =>
        notify.info(copied ? t('events.linkCopied') : t('events.copyLinkForInstagram', { url: pageUrl })),
      );
    }
  };

  return (
    <div className="share">
      <h2 className="share__title">{t('events.shareTitle')}</h2>
      <ul className="share__list">
        {shareTargets(title, pageUrl).map((target) => (
          <li key={target.platform}>
            <a
              className={`share__link share__link--${target.platform}`}
              href={target.href}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => handleShare(target.platform, Boolean(target.copiesLink))}
            >
              <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false">
                <path d={icons[target.platform]} />
              </svg>
              <span>
                {target.label}
                <span className="visually-hidden"> {t('events.shareOpensNewTab')}</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
