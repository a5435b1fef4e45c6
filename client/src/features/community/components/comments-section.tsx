/*
 * EVENT PAGE › Comments (docs/product.md /events/{id}, always shown). Newest first, a page at a time
 * ("Load more" for older ones); any signed-in user can comment; only the author sees Edit (which becomes
 * Save) and Delete.
 */
import { COMMENT_MAX_LENGTH } from '@tukio/shared/limits';
import { useRef, useState } from 'react';
import { TextAreaField } from '../../../components/ui/form-field';
import { usePagedList } from '../../../hooks/use-paged-list';
import { LoadMore } from '../../../components/ui/load-more';
import { useT } from '../../../lib/i18n';
import { addComment, deleteComment, getCommentPage, updateComment } from '../api/comments-api';
import { useEntryEditing, type EntryItemProps } from '../hooks/use-entry-editing';
import { useSignedInSubmit } from '../hooks/use-signed-in-submit';
import { shownText } from '../lib/placeholders';
import type { EventComment } from '../types';
import { CommunityEntry, EntryList } from './community-entry';
import { CommunityForm, SectionLoadState } from './community-section-parts';
import '../community.css';

export function CommentsSection({ eventId }: { eventId: string }) {
  const t = useT();
  const list = usePagedList(`comments:${eventId}`, (cursor, signal) => getCommentPage(eventId, cursor, signal));
  const { items: comments, error, loading, reload, update } = list;
  const loaded = !loading && !error;

  const replace = (updated: EventComment) => update((items) => items.map((comment) => (comment._id === updated._id ? updated : comment)));
  const remove = (id: string) => update((items) => items.filter((comment) => comment._id !== id), -1);

  return (
    <section className="community-section card" aria-labelledby="comments-heading">
      <h2 id="comments-heading">
        {t('community.comments')}{loaded ? <span className="community-section__count"> ({list.total})</span> : null}
      </h2>
      {loading || error ? (
        <SectionLoadState noun="comments" loading={loading} onRetry={reload} />
      ) : comments.length === 0 ? (
        <p className="muted">{t('community.noComments')}</p>
      ) : (
        <>
          <EntryList entries={comments} Item={CommentItem} onUpdated={replace} onDeleted={remove} />
          <LoadMore shown={comments.length} total={list.total} hasMore={list.hasMore} loading={list.loadingMore} error={list.loadMoreError} onLoadMore={list.loadMore} />
        </>
      )}
      <CommentForm
        eventId={eventId}
        // Newest first: a new comment leads the list (and is never on a later page).
        onAdded={(comment) => update((items) => [comment, ...items], 1)}
        disabled={loading}
      />
    </section>
  );
}

function CommentForm({
  eventId,
  onAdded,
  disabled,
}: {
  eventId: string;
  onAdded: (comment: EventComment) => void;
  disabled: boolean;
}) {
  const t = useT();
  const { isLoggedIn, error, setError, pending, submit } = useSignedInSubmit();
  const [content, setContent] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);

  return (
    <CommunityForm
      onSubmit={(event) =>
        void submit(event, {
          validate: () => {
            if (content.trim() !== '') return true;
            setError(t('community.commentEmpty'));
            inputRef.current?.focus();
            return false;
          },
          send: async (userId) => {
            onAdded(await addComment({ eventId, userId, content: content.trim() }));
            setContent('');
          },
          fallback: t('community.commentFailed'),
        })
      }
      label={t('community.postComment')}
      pending={pending}
      loadingText={t('community.posting')}
      disabled={disabled}
      isLoggedIn={isLoggedIn}
      action="comment"
    >
      <TextAreaField
        ref={inputRef}
        label={t('community.addComment')}
        name="comment"
        rows={3}
        maxLength={COMMENT_MAX_LENGTH}
        placeholder={t('community.commentPlaceholder')}
        value={content}
        error={error}
        onChange={(event) => {
          setContent(event.target.value);
          if (error) setError(null);
        }}
      />
    </CommunityForm>
  );
}

function CommentItem(item: EntryItemProps<EventComment>) {
  const t = useT();
  const { entry: comment, userId } = item;
  const editing = useEntryEditing(item, {
    noun: 'comment',
    initialDraft: () => comment.content,
    focusSelector: 'textarea',
    validate: (draft) => (draft.trim() === '' ? t('community.commentEmpty') : null),
    isUnchanged: (draft) => draft.trim() === comment.content,
    update: (draft) => updateComment(comment._id, draft.trim()),
    destroy: () => deleteComment(comment._id, userId),
  });
  const { draft, setDraft, error, setError } = editing;

  return (
    <CommunityEntry
      editing={editing}
      editFormClassName="entry__edit"
      editor={
        <TextAreaField
          label={t('community.editComment')}
          rows={3}
          maxLength={COMMENT_MAX_LENGTH}
          value={draft}
          error={error}
          onChange={(event) => {
            setDraft(event.target.value);
            if (error) setError(null);
          }}
        />
      }
      view={<p className={`entry__text${comment.hidden && comment.hiddenReason === undefined ? ' entry__text--hidden' : ''}`}>{shownText(comment.content)}</p>}
    />
  );
}
