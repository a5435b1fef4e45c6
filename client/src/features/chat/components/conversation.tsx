import { useEffect, useId, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { PageLoader } from '../../../components/ui/spinner';
import { AvatarImage } from '../../../components/avatar-image';
import { useConversation } from '../hooks/use-conversation';
import type { ChatClient } from '../lib/chat-client';
import type { ChatContact } from '../types';
import { Composer } from './composer';
import { BackIcon, LogoutIcon } from './icons';
import { MessageList } from './message-list';

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
    body = <PageLoader label="Loading messages…" />;
  } else if (state.status === 'error') {
    body = (
      <div className="chat-conv__problem">
        <FormMessage tone="error">{state.error}</FormMessage>
        <Button variant="secondary" className="btn--sm" onClick={reload}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = (
      <MessageList
        messages={state.messages}
        contactName={contact.username}
        hasMore={state.hasMore}
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
        <button type="button" className="chat-conv__back" aria-label="Back to contacts" onClick={onBack}>
          <BackIcon />
        </button>
        <span className="chat-conv__avatar" aria-hidden="true">
          <AvatarImage image={contact.avatarImage} username={contact.username} size={42} />
          {online ? <span className="chat-presence" /> : null}
        </span>
        <div className="chat-conv__who">
          <h2 id={headingId} ref={headingRef} className="chat-conv__name" tabIndex={-1}>
            {contact.username}
          </h2>
          {online === undefined ? null : (
            <p className={`chat-conv__status${online ? ' chat-conv__status--online' : ''}`}>
              {online ? 'Online' : 'Offline'}
            </p>
          )}
        </div>
        <Button variant="ghost" className="btn--sm chat-conv__logout" onClick={onLogout}>
          <LogoutIcon />
          <span>Logout</span>
        </Button>
      </header>
      <div className="chat-conv__body">{body}</div>
      <Composer contactName={contact.username} onSend={send} inputRef={inputRef} />
    </section>
  );
}
