import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { usePagedList } from '../../../hooks/use-paged-list';
import { LoadMore } from '../../../components/ui/load-more';
import { getErrorMessage } from '../../../lib/errors';
import { useT } from '../../../lib/i18n';
import type { StoredUser } from '../../../types/api';
import type { ChatContact } from '../types';
import { logoutRequest } from '../../../lib/logout-request';
import { useSession } from '../../../hooks/use-session';
import { getContact, getContactPage } from '../api/chat-api';
import { useChatClient } from '../hooks/use-chat-client';
import { useOnlineUsers } from '../hooks/use-online-users';
import { useUnreadCounts } from '../hooks/use-unread-counts';
import { ConnectionNotice } from './connection-notice';
import { ContactList } from './contact-list';
import { ContactSearch } from './contact-search';
import { Conversation } from './conversation';
import { WelcomePanel } from './welcome-panel';

/** The open conversation lives in the URL (`/chat?with=<contactId>`), so Back and links work. */
const WITH_PARAM = 'with';

export function ChatScreen({ user, token }: { user: StoredUser; token: string }) {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const { logout } = useSession();
  const selectedId = params.get(WITH_PARAM);

  // The people I have talked with, most recent conversation first, a page at a time.
  const contactsFetch = usePagedList(`chat-contacts:${user._id}`, (cursor, signal) => getContactPage(cursor, signal));
  // People found by search: listed on top until the server counts them as contacts (after a first message).
  const [started, setStarted] = useState<ChatContact[]>([]);
  const contacts = useMemo(() => {
    const fetched = contactsFetch.items;
    const fetchedIds = new Set(fetched.map((c) => c._id));
    return [...started.filter((c) => !fetchedIds.has(c._id)), ...fetched];
  }, [contactsFetch.items, started]);
  // A conversation opened by its link with someone beyond the loaded pages: their card is asked for.
  const listed = selectedId ? (contacts.find((c) => c._id === selectedId) ?? null) : null;
  const unlisted = useQuery({ queryKey: ['chat-contact', selectedId], queryFn: ({ signal }) => getContact(selectedId!, signal), enabled: Boolean(selectedId && !listed && !contactsFetch.loading) });
  const contactsLoading = contactsFetch.loading || unlisted.isLoading;
  const selected = listed ?? (unlisted.data && unlisted.data._id === selectedId ? unlisted.data : null);

  const { client, state: connection } = useChatClient(token, user._id);
  const online = useOnlineUsers(client);

  const known = useMemo(() => new Set(contacts.map((c) => c._id)), [contacts]);
  const isKnown = useCallback((id: string) => known.has(id), [known]);
  const { reload: reloadContacts } = contactsFetch;
  const unread = useUnreadCounts({
    userId: user._id,
    client,
    openContactId: selected ? selected._id : null,
    isKnown,
    onUnknownSender: reloadContacts,
  });

  const select = (contactId: string) => {
    if (contactId === selectedId) return;
    // From the list (no conversation open) push, so Back returns to the list; switching replaces.
    void navigate(
      { pathname: paths.chat, search: `?${WITH_PARAM}=${encodeURIComponent(contactId)}` },
      { replace: selectedId !== null, state: { fromList: true } },
    );
  };

  const startWith = (contact: ChatContact) => {
    setStarted((current) => [contact, ...current.filter((c) => c._id !== contact._id)]);
    select(contact._id);
  };

  const back = () => {
    if ((location.state as { fromList?: boolean } | null)?.fromList) void navigate(-1);
    else void navigate(paths.chat, { replace: true });
  };

  const handleLogout = () => {
    logoutRequest(token);
    try {
      window.localStorage.clear(); // docs/product.md: the chat logout clears all local storage
    } catch {
      /* storage unavailable */
    }
    logout();
    void navigate(paths.login, { replace: true });
  };

  const contactsError = contactsFetch.error ? getErrorMessage(contactsFetch.error, t('chat.contactsLoadFailed')) : null;
  const view = selected || (selectedId && contactsLoading) ? 'conversation' : 'contacts';

  let main;
  if (selected) {
    main = (
      <Conversation
        key={selected._id}
        selfId={user._id}
        contact={selected}
        client={client}
        online={connection === 'online' ? online.has(selected._id) : undefined}
        onBack={back}
        onLogout={handleLogout}
      />
    );
  } else if (selectedId && contactsLoading) {
    main = <PageLoader label={t('chat.opening')} />;
  } else {
    main = <WelcomePanel username={user.username} />;
  }

  return (
    <div className="chat-page">
      <h1 className="visually-hidden">{t('chat.title')}</h1>
      <div className="chat" data-view={view}>
        <ConnectionNotice state={connection} onReconnect={() => client?.reconnect()} />
        <ContactList
          me={user}
          contacts={contacts}
          loading={contactsLoading}
          error={contactsError}
          onRetry={contactsFetch.reload}
          selectedId={selected ? selected._id : null}
          unread={unread}
          online={connection === 'online' ? online : EMPTY}
          onSelect={select}
          search={<ContactSearch onChoose={startWith} />}
          more={
            <LoadMore
              shown={contactsFetch.items.length}
              total={contactsFetch.total}
              hasMore={contactsFetch.hasMore}
              loading={contactsFetch.loadingMore}
              error={contactsFetch.loadMoreError}
              onLoadMore={contactsFetch.loadMore}
            />
          }
        />
        <div className="chat__main">{main}</div>
      </div>
    </div>
  );
}

const EMPTY: ReadonlySet<string> = new Set();
