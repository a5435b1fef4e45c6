import type { ComponentType, ReactNode } from 'react';
import { HiddenNote, ReportButton } from '../../../components/moderation/report-button';
import { Button } from '../../../components/ui/button';
import { useSession } from '../../../hooks/use-session';
import { useT } from '../../../lib/i18n';
import type { EntryEditing, EntryItemProps, EntryShape } from '../hooks/use-entry-editing';
import { isEdited } from '../lib/time';
import { TimeAgo } from './time-ago';
import { displayName } from '../../../lib/display-name';

/** The list of comments or reviews; each one learns whether the signed-in user wrote it. */
export function EntryList<Entry extends EntryShape>({
  entries,
  Item,
  onUpdated,
  onDeleted,
}: {
  entries: Entry[];
  Item: ComponentType<EntryItemProps<Entry>>;
  onUpdated: (entry: Entry) => void;
  onDeleted: (id: string) => void;
}) {
  const { user, isLoggedIn } = useSession();
  return (
    <ul className="entry-list">
      {entries.map((entry) => (
        <Item
          key={entry._id}
          entry={entry}
          isAuthor={Boolean(isLoggedIn && user && entry.user?._id === user._id)}
          userId={user?._id ?? ''}
          onUpdated={onUpdated}
          onDeleted={onDeleted}
        />
      ))}
    </ul>
  );
}

/**
 * One comment or review in its list: author, age and "(edited)", then either the entry (`view`) or
 * its editor (`editor`, inside the edit form), and for its author the Edit/Save and Cancel/Delete row.
 */
export function CommunityEntry<Entry extends EntryShape, Draft>({
  editing,
  view,
  editor,
  editFormClassName,
}: {
  editing: EntryEditing<Entry, Draft>;
  view: ReactNode;
  editor: ReactNode;
  editFormClassName: string;
}) {
  const t = useT();
  const { noun, item } = editing;
  const { entry } = item;
  const username = displayName(t, entry.user?.username) ?? t('community.unknownAuthorLower');
  return (
    <li className="entry">
      <article aria-label={t(noun === 'comment' ? 'community.commentBy' : 'community.reviewBy', { username })}>
        <header className="entry__meta">
          <span className="entry__author">{displayName(t, entry.user?.username) ?? t('community.unknownAuthor')}</span>
          <TimeAgo value={entry.createdAt} />
          {isEdited(entry.createdAt, entry.updatedAt) ? <span className="muted">{t('community.edited')}</span> : null}
          {item.userId && !item.isAuthor ? <ReportButton kind={noun} id={entry._id} authorName={entry.user?.username} className="entry__report" /> : null}
        </header>
        {editing.editing ? (
          <form
            className={editFormClassName}
            ref={editing.editFormRef}
            onSubmit={(event) => {
              event.preventDefault();
              void editing.save();
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') editing.stopEditing();
            }}
            noValidate
          >
            {editor}
          </form>
        ) : (
          <>
            {view}
            <HiddenNote hidden={entry.hidden} reason={entry.hiddenReason} />
          </>
        )}
        {item.isAuthor ? <EntryActions editing={editing} /> : null}
      </article>
    </li>
  );
}

/** Edit (Save while editing) and Delete (Cancel while editing), named after the entry for screen readers. */
function EntryActions<Entry extends EntryShape, Draft>({ editing }: { editing: EntryEditing<Entry, Draft> }) {
  const t = useT();
  const { noun, saving, deleting } = editing;
  const nounText = t(noun === 'comment' ? 'community.nounComment' : 'community.nounReview');
  return (
    <div className="button-row entry__actions" ref={editing.actionsRef}>
      <Button
        variant="secondary"
        className="btn--sm"
        loading={saving}
        loadingText={t('community.saving')}
        disabled={deleting}
        onClick={editing.editing ? () => void editing.save() : editing.startEditing}
      >
        {t(editing.editing ? 'community.save' : 'community.edit')}
        <span className="visually-hidden">{` ${nounText}`}</span>
      </Button>
      {editing.editing ? (
        <Button variant="ghost" className="btn--sm" disabled={saving} onClick={editing.stopEditing}>
          {t('community.cancel')}
        </Button>
      ) : (
        <Button
          variant="danger"
          className="btn--sm"
          loading={deleting}
          loadingText={t('community.deleting')}
          onClick={() => void editing.remove()}
        >
          {t('community.delete')}<span className="visually-hidden">{` ${nounText}`}</span>
        </Button>
      )}
    </div>
  );
}
