import { USER_SEARCH_MAX_PAGE, USERNAME_MAX_LENGTH } from '@tukio/shared/limits';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { TextField } from '../../../components/ui/form-field';
import { getErrorMessage } from '../../../lib/errors';
import { t as translate, useT } from '../../../lib/i18n';
import { AvatarImage } from '../../../components/avatar-image';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { searchUsers } from '../api/chat-api';
import type { ChatContact } from '../types';

const TYPING_DELAY_MS = 250;

interface Results {
  q: string;
  users: ChatContact[];
  page: number;
  hasMore: boolean;
}

/**
 * Finding someone new to talk to: contacts are only the people one has talked with, so a first
 * message starts here, from a username search (one page at a time, as the server bounds it).
 */
export function ContactSearch({ onChoose }: { onChoose: (contact: ChatContact) => void }) {
  const t = useT();
  const [draft, setDraft] = useState('');
  const q = useDebouncedValue(draft.trim(), TYPING_DELAY_MS);
  const [results, setResults] = useState<Results | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    setError(null);
    if (!q) {
      setResults(null);
      return;
    }
    const controller = new AbortController();
    searchUsers(q, 1, controller.signal).then(
      (page) => setResults({ q, ...page }),
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(getErrorMessage(failure, translate('chat.searchFailed')));
      },
    );
    return () => controller.abort();
  }, [q]);

  const loadMore = () => {
    if (!results) return;
    setLoadingMore(true);
    searchUsers(results.q, results.page + 1)
      .then(
        (next) =>
          setResults((current) =>
            current?.q === results.q ? { ...current, users: [...current.users, ...next.users], page: next.page, hasMore: next.hasMore } : current,
          ),
        (failure: unknown) => setError(getErrorMessage(failure, t('chat.searchFailed'))),
      )
      .finally(() => setLoadingMore(false));
  };

  const choose = (contact: ChatContact) => {
    setDraft('');
    setResults(null);
    onChoose(contact);
  };

  const current = results && results.q === q ? results : null;
  let body;
  if (!q) body = null;
  else if (error) body = <FormMessage tone="error">{error}</FormMessage>;
  else if (!current) body = <p className="chat-search__note">{t('chat.searching')}</p>;
  else if (current.users.length === 0) body = <p className="chat-search__note">{t('chat.noOneFound', { query: q })}</p>;
  else {
    body = (
      <>
        <ul className="chat-contacts__list chat-search__results" aria-label={t('chat.usersStartingWith', { query: q })}>
          {current.users.map((user) => (
            <li key={user._id}>
              <button type="button" className="chat-contact" onClick={() => choose(user)}>
                <span className="chat-contact__avatar" aria-hidden="true">
                  <AvatarImage image={user.avatarImage} username={user.username} size={36} />
                </span>
                <span className="chat-contact__name" aria-hidden="true">
                  {user.username}
                </span>
                <span className="visually-hidden">{t('chat.chatWith', { username: user.username })}</span>
              </button>
            </li>
          ))}
        </ul>
        {current.hasMore && current.page < USER_SEARCH_MAX_PAGE ? (
          <Button variant="secondary" className="btn--sm" loading={loadingMore} onClick={loadMore}>
            {t('chat.moreResults')}
          </Button>
        ) : current.hasMore ? (
          <p className="chat-search__note">{t('chat.typeMore')}</p>
        ) : null}
      </>
    );
  }

  return (
    <div className="chat-search" role="search">
      <TextField
        label={t('chat.findSomeone')}
        type="search"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        maxLength={USERNAME_MAX_LENGTH}
      />
      <div aria-live="polite">{body}</div>
    </div>
  );
}
