import { Fragment, useLayoutEffect, useRef } from 'react';
import { ReportButton } from '../../../components/moderation/report-button';
import { Spinner } from '../../../components/ui/spinner';
import { perLocale } from '../../../lib/format';
import { t as translate, useT } from '../../../lib/i18n';
import type { ChatMessage } from '../types';

const NEAR_BOTTOM_PX = 120;
const NEAR_TOP_PX = 80;

/** Message times in the reader's clock (the device's zone) and language. */
const formats = perLocale((locale) => ({
  time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }),
  day: new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }),
  full: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' }),
}));

/** The server's placeholder for a message a moderator hid: the app's words, in the reader's language. */
const HIDDEN_MESSAGE = '[hidden by a moderator]';

function dayKey(date: Date): string {
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

function dayLabel(date: Date): string {
  const today = new Date();
  const yesterday = new Date(today);
  yesterday.setDate(today.getDate() - 1);
  if (dayKey(date) === dayKey(today)) return translate('chat.today');
  if (dayKey(date) === dayKey(yesterday)) return translate('chat.yesterday');
  return formats().day.format(date);
}

function MessageBubble({
  message,
  contactName,
  onRetry,
  onDiscard,
}: {
  message: ChatMessage;
  contactName: string;
  onRetry: (key: string) => void;
  onDiscard: (key: string) => void;
}) {
  const t = useT();
  const date = new Date(message.createdAt);
  const side = message.fromSelf ? 'self' : 'other';
  return (
    <div className={`chat-msg chat-msg--${side} chat-msg--${message.status}`}>
      <div className="chat-msg__bubble">
        <span className="visually-hidden">{message.fromSelf ? t('chat.you') : contactName}: </span>
        <span className="chat-msg__text">{message.text === HIDDEN_MESSAGE ? t('chat.hiddenMessage') : message.text}</span>
        <span className="chat-msg__meta">
          {message.status === 'sending' ? (
            t('chat.sending')
          ) : message.status === 'failed' ? (
            t('chat.notSent')
          ) : (
            <time dateTime={message.createdAt} title={formats().full.format(date)}>
              {formats().time.format(date)}
            </time>
          )}
        </span>
      </div>
      {!message.fromSelf && message.id ? <ReportButton kind="message" id={message.id} authorName={contactName} className="chat-msg__report" /> : null}
      {message.status === 'failed' ? (
        <div className="chat-msg__failure">
          <span className="chat-msg__error">{message.error ?? t('chat.messageNotSent')}</span>
          {message.final ? null : (
            <button type="button" className="chat-msg__action" onClick={() => onRetry(message.key)}>
              {t('chat.retry')}
            </button>
          )}
          <button type="button" className="chat-msg__action" onClick={() => onDiscard(message.key)}>
            {t('chat.delete')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/**
 * The conversation as a scrollable log region. Keeps the newest message in view (unless the
 * reader has scrolled up to read history), keeps the reading position when older pages are
 * added on top, and asks for the next older page when scrolled near the top.
 */
export function MessageList({
  messages,
  contactName,
  hasMore,
  total,
  loadingOlder,
  olderError,
  onLoadOlder,
  onRetry,
  onDiscard,
}: {
  messages: ChatMessage[];
  contactName: string;
  hasMore: boolean;
  /** Stored messages in the whole conversation. */
  total: number;
  loadingOlder: boolean;
  olderError: string | null;
  onLoadOlder: () => void;
  onRetry: (key: string) => void;
  onDiscard: (key: string) => void;
}) {
  const t = useT();
  const scrollRef = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const previous = useRef<{ firstKey: string | null; lastKey: string | null; scrollHeight: number }>({
    firstKey: null,
    lastKey: null,
    scrollHeight: 0,
  });

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const before = previous.current;
    const first = messages[0]?.key ?? null;
    const last = messages[messages.length - 1];
    const lastKey = last?.key ?? null;

    if (before.lastKey === null) {
      el.scrollTop = el.scrollHeight; // first paint: newest in view
    } else if (first !== before.firstKey && messages.some((m) => m.key === before.firstKey) && lastKey === before.lastKey) {
      el.scrollTop += el.scrollHeight - before.scrollHeight; // older page on top: keep the reading position
    } else if (lastKey !== before.lastKey && (nearBottom.current || last?.fromSelf)) {
      el.scrollTop = el.scrollHeight;
    } else if (nearBottom.current) {
      el.scrollTop = el.scrollHeight; // a status change (sent / failed) may change the last bubble's height
    }
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    previous.current = { firstKey: first, lastKey, scrollHeight: el.scrollHeight };
  }, [messages, olderError, loadingOlder, hasMore]);

  // The viewport changing size (mobile keyboard, rotation) should not lose the newest message.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (nearBottom.current) el.scrollTop = el.scrollHeight;
      previous.current.scrollHeight = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const handleScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    if (el.scrollTop < NEAR_TOP_PX && hasMore && !loadingOlder && !olderError) onLoadOlder();
  };

  let lastDay = '';
  return (
    <div
      ref={scrollRef}
      className="chat-log"
      role="log"
      aria-live="polite"
      aria-label={t('chat.messagesWith', { username: contactName })}
      aria-busy={loadingOlder || undefined}
      tabIndex={0}
      onScroll={handleScroll}
    >
      {hasMore ? (
        <div className="chat-log__older">
          <span className="chat-log__note chat-log__count">{t('ui.shownOfTotal', { shown: messages.filter((m) => m.status === 'sent').length, total })}</span>
          {loadingOlder ? (
            <span className="chat-log__note">
              <Spinner size="sm" /> {t('chat.loadingEarlier')}
            </span>
          ) : olderError ? (
            <span className="chat-log__note chat-log__note--error">
              {olderError}{' '}
              <button type="button" className="chat-msg__action" onClick={onLoadOlder}>
                {t('chat.tryAgain')}
              </button>
            </span>
          ) : (
            <button type="button" className="chat-log__more" onClick={onLoadOlder}>
              {t('chat.loadEarlier')}
            </button>
          )}
        </div>
      ) : messages.length > 0 ? (
        <p className="chat-log__note">{t('chat.conversationStart', { username: contactName })}</p>
      ) : null}

      {messages.length === 0 ? (
        <p className="chat-log__empty">{t('chat.noMessages', { username: contactName })}</p>
      ) : null}

      {messages.map((message) => {
        const date = new Date(message.createdAt);
        const day = dayKey(date);
        const showDay = day !== lastDay;
        lastDay = day;
        return (
          <Fragment key={message.key}>
            {showDay ? (
              <p className="chat-day">
                <span>{dayLabel(date)}</span>
              </p>
            ) : null}
            <MessageBubble message={message} contactName={contactName} onRetry={onRetry} onDiscard={onDiscard} />
          </Fragment>
        );
      })}
    </div>
  );
}
