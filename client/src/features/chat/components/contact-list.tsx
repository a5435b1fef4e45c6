import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PageLoader } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import type { StoredUser } from '../../../types/api';
import { AvatarImage } from '../../../components/avatar-image';
import { useT } from '../../../lib/i18n';
import type { ChatContact, UnreadCounts } from '../types';
import { displayName } from '../../../lib/display-name';

export function ContactList({
  me,
  contacts,
  loading,
  error,
  onRetry,
  selectedId,
  unread,
  online,
  onSelect,
  search,
  more,
}: {
  me: StoredUser;
  contacts: ChatContact[];
  loading: boolean;
  error: string | null;
  onRetry: () => void;
  selectedId: string | null;
  unread: UnreadCounts;
  online: ReadonlySet<string>;
  onSelect: (contactId: string) => void;
  /** Finding someone new (shown above the contacts). */
  search?: ReactNode;
  /** Below the contacts: how many are shown, and the next page. */
  more?: ReactNode;
}) {
  const t = useT();
  const headingId = useId();
  const listRef = useRef<HTMLUListElement>(null);

  // Back from a conversation on a phone: the back button is gone, so return focus to the contact
  // that was open (on wide screens the list never disappears and focus stays where it was).
  const previousSelected = useRef(selectedId);
  useEffect(() => {
    const previous = previousSelected.current;
    previousSelected.current = selectedId;
    if (!previous || selectedId) return;
    const active = document.activeElement;
    if (active && active !== document.body) return; // focus was not lost
    listRef.current?.querySelector<HTMLButtonElement>(`[data-contact-id="${CSS.escape(previous)}"]`)?.focus();
  }, [selectedId]);

  let body;
  if (loading) {
    body = <PageLoader label={t('chat.loadingContacts')} />;
  } else if (error) {
    body = (
      <div className="chat-contacts__problem">
        <FormMessage tone="error">{error}</FormMessage>
        <Button variant="secondary" className="btn--sm" onClick={onRetry}>
          {t('chat.tryAgain')}
        </Button>
      </div>
    );
  } else if (contacts.length === 0) {
    body = (
      <p className="chat-contacts__empty">{t('chat.noConversations')}</p>
    );
  } else {
    body = (
      <ul className="chat-contacts__list" ref={listRef}>
        {contacts.map((contact) => {
          const selected = contact._id === selectedId;
          const count = selected ? 0 : (unread[contact._id] ?? 0);
          const isOnline = online.has(contact._id);
          // Read as one name, e.g. "amani, online, 2 unread messages"; the visible badge is hidden from it.
          const extra = [
            isOnline ? t('chat.contactOnline') : null,
            count > 0 ? t('chat.unreadMessages', { count }) : null,
          ]
            .filter(Boolean)
            .map((part) => `, ${part}`)
            .join('');
          return (
            <li key={contact._id}>
              <button
                type="button"
                className={`chat-contact${selected ? ' chat-contact--selected' : ''}`}
                aria-current={selected ? 'true' : undefined}
                data-contact-id={contact._id}
                onClick={() => onSelect(contact._id)}
              >
                <span className="chat-contact__avatar" aria-hidden="true">
                  <AvatarImage image={contact.avatarImage} username={contact.username} size={44} />
                  {isOnline ? <span className="chat-presence" /> : null}
                </span>
                <span className="chat-contact__name" aria-hidden="true">
                  {displayName(t, contact.username)}
                </span>
                <span className="visually-hidden">{`${displayName(t, contact.username)}${extra}`}</span>
                {count > 0 ? (
                  <span className="chat-unread" aria-hidden="true">
                    {count > 99 ? '99+' : count}
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
    );
  }
  const footer = !loading && !error ? more : null;

  return (
    <aside className="chat-contacts" aria-labelledby={headingId}>
      <div className="chat-contacts__head">
        <h2 id={headingId} className="chat-contacts__title">
          {t('chat.chats')}
        </h2>
        <Link to={paths.chat} className="chat-contacts__link">
          {t('chat.goToChats')}
        </Link>
      </div>
      {search}
      <div className="chat-contacts__body">
        {body}
        {footer}
      </div>
      <div className="chat-contacts__me">
        <span aria-hidden="true">
          <AvatarImage image={me.avatarImage} username={me.username} size={36} />
        </span>
        <span className="chat-contacts__me-name">
          <span className="muted">{t('chat.signedInAs')}</span> <strong>{me.username}</strong>
        </span>
      </div>
    </aside>
  );
}
