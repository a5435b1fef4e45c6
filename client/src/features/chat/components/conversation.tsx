import { useEffect, useId, useRef, useState } from 'react';
import { ReportButton } from '../../../components/moderation/report-button';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PageLoader } from '../../../components/ui/spinner';
import { blockUser, getBlockedUsers, unblockUser } from '../../../lib/blocks-api';
import { getErrorMessage } from '../../../lib/errors';
import { notify } from '../../../lib/notify';
import { useT } from '../../../lib/i18n';
import { AvatarImage } from '../../../components/avatar-image';
import { useConversation } from '../hooks/use-conversation';
import type { ChatClient } from '../lib/chat-client';
import type { ChatContact } from '../types';
import { Composer } from './composer';
import { BackIcon, LogoutIcon } from './icons';
import { MessageList } from './message-list';
import { displayName } from '../../../lib/display-name';

const wideScreen = () => typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 720px)').matches;

/** The open conversation: header (back, contact, logout), message log and composer. Key it by contact id. */
export function Conversation({
  selfId,
  contact,
  client,
  online,
  onBack,
  onLogout,
}: {
  selfId: string;
  contact: ChatContact;
  client: ChatClient | null;
  /** Undefined while our own connection is down (presence unknown). */
  online: boolean | undefined;
  onBack: () => void;
  onLogout: () => void;
}) {
  const t = useT();
  const headingId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { state, loadOlder, send, retry, discard, reload } = useConversation(selfId, contact._id, client);

  // On wide screens go straight to typing. On phones that would pop the keyboard up over the
  // history, and the contact button that was pressed is gone, so focus lands on the contact's name.
  useEffect(() => {
    if (wideScreen()) inputRef.current?.focus({ preventScroll: true });
    else headingRef.current?.focus({ preventScroll: true });
  }, []);

  let body;
  if (state.status === 'loading') {
    body = <PageLoader label={t('chat.loadingMessages')} />;
  } else if (state.status === 'error') {
    body = (
      <div className="chat-conv__problem">
        <FormMessage tone="error">{state.error}</FormMessage>
        <Button variant="secondary" className="btn--sm" onClick={reload}>
          {t('chat.tryAgain')}
        </Button>
      </div>
    );
  } else {
    body = (
      <MessageList
        messages={state.messages}
        contactName={contact.username}
        hasMore={state.hasMore}
        total={state.total}
        loadingOlder={state.loadingOlder}
        olderError={state.olderError}
        onLoadOlder={loadOlder}
        onRetry={retry}
        onDiscard={discard}
      />
    );
  }

  return (
    <section className="chat-conv" aria-labelledby={headingId}>
      <header className="chat-conv__head">
        <button type="button" className="chat-conv__back" aria-label={t('chat.backToContacts')} onClick={onBack}>
          <BackIcon />
        </button>
        <span className="chat-conv__avatar" aria-hidden="true">
          <AvatarImage image={contact.avatarImage} username={contact.username} size={42} />
          {online ? <span className="chat-presence" /> : null}
        </span>
        <div className="chat-conv__who">
          <h2 id={headingId} ref={headingRef} className="chat-conv__name" tabIndex={-1}>
            {displayName(t, contact.username)}
          </h2>
          {online === undefined ? null : (
            <p className={`chat-conv__status${online ? ' chat-conv__status--online' : ''}`}>
              {t(online ? 'chat.statusOnline' : 'chat.statusOffline')}
            </p>
          )}
        </div>
        <div className="chat-conv__safety">
          <BlockToggle contactId={contact._id} contactName={contact.username} />
          <ReportButton kind="user" id={contact._id} authorName={contact.username} />
        </div>
        <Button variant="ghost" className="btn--sm chat-conv__logout" onClick={onLogout}>
          <LogoutIcon />
          <span>{t('chat.logout')}</span>
        </Button>
      </header>
      <div className="chat-conv__body">{body}</div>
      <Composer contactName={contact.username} onSend={send} inputRef={inputRef} />
    </section>
  );
}

/**
 * Block / Unblock the open contact. While blocked neither side can send (the server refuses with a clear
 * message, shown on the failed message), and the contact no longer sees me in their contacts.
 */
function BlockToggle({ contactId, contactName }: { contactId: string; contactName: string }) {
  const t = useT();
  const [blocked, setBlocked] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    getBlockedUsers(controller.signal).then(
      (list) => setBlocked(list.some((user) => user._id === contactId)),
      () => setBlocked(false),
    );
    return () => controller.abort();
  }, [contactId]);

  const toggle = async () => {
    setBusy(true);
    try {
      if (blocked) await unblockUser(contactId);
      else await blockUser(contactId);
      notify.success(t(blocked ? 'chat.unblocked' : 'chat.blocked', { username: contactName }));
      setBlocked(!blocked);
    } catch (error) {
      notify.error(getErrorMessage(error, t('chat.actionFailed')));
    } finally {
      setBusy(false);
    }
  };

  if (blocked === null) return null;
  return (
    <Button variant="ghost" className="btn--sm" loading={busy} loadingText={t(blocked ? 'chat.unblocking' : 'chat.blocking')} onClick={() => void toggle()} aria-pressed={blocked}>
      {t(blocked ? 'chat.unblock' : 'chat.block')}
      <span className="visually-hidden">{` ${contactName}`}</span>
    </Button>
  );
}
