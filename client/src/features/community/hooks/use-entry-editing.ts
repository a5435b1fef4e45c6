import { useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { getErrorMessage } from '../../../lib/errors';
import { t } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import type { Author } from '../types';

/** What a community entry is called in its texts ("Edit comment", "delete your review"…). */
export type EntryNoun = 'comment' | 'review';

/** The texts that name the entry (Kiswahili does not build them from the noun as English does). */
const NOUN_TEXTS: Record<EntryNoun, { saveFailed: string; confirmDelete: string; deleteFailed: string }> = {
  comment: {
    saveFailed: 'community.saveCommentFailed',
    confirmDelete: 'community.confirmDeleteComment',
    deleteFailed: 'community.deleteCommentFailed',
  },
  review: {
    saveFailed: 'community.saveReviewFailed',
    confirmDelete: 'community.confirmDeleteReview',
    deleteFailed: 'community.deleteReviewFailed',
  },
};

/** What comments and reviews have in common. */
export interface EntryShape {
  _id: string;
  user?: Author;
  createdAt: string;
  updatedAt?: string;
  /** Hidden by a moderator: others get "[hidden by a moderator]" as the text; the author also gets the reason. */
  hidden?: boolean;
  hiddenReason?: string;
}

/** What a list hands each of its comments or reviews. */
export interface EntryItemProps<Entry extends EntryShape> {
  entry: Entry;
  isAuthor: boolean;
  /** The signed-in user ('' when logged out). */
  userId: string;
  onUpdated: (entry: Entry) => void;
  onDeleted: (id: string) => void;
}

export interface EntryEditingOptions<Entry extends EntryShape, Draft> {
  noun: EntryNoun;
  /** The draft the editor opens with: the entry as it is saved. */
  initialDraft: () => Draft;
  /** The control in the edit form that takes the focus (on opening, and on a draft that cannot be saved). */
  focusSelector: string;
  /** A message when the draft cannot be saved as it is; null when it can. */
  validate?: (draft: Draft) => string | null;
  /** True when saving would change nothing: the editor just closes. */
  isUnchanged: (draft: Draft) => boolean;
  /** Saves the draft; resolves to the entry as saved. */
  update: (draft: Draft) => Promise<Entry>;
  /** Deletes the entry. */
  destroy: () => Promise<unknown>;
}

export interface EntryEditing<Entry extends EntryShape, Draft> {
  noun: EntryNoun;
  item: EntryItemProps<Entry>;
  editing: boolean;
  draft: Draft;
  setDraft: Dispatch<SetStateAction<Draft>>;
  error: string | null;
  setError: Dispatch<SetStateAction<string | null>>;
  saving: boolean;
  deleting: boolean;
  /** The edit form, shown while editing. */
  editFormRef: RefObject<HTMLFormElement | null>;
  /** The author's Edit/Save, Cancel/Delete row: focus returns to it when the editor closes. */
  actionsRef: RefObject<HTMLDivElement | null>;
  startEditing: () => void;
  stopEditing: () => void;
  save: () => Promise<void>;
  remove: () => Promise<void>;
}

/**
 * Edit state and the Edit/Save/Cancel/Delete (with confirmation) actions of a comment or review;
 * a saved or deleted entry is handed to the list through `item`.
 */
export function useEntryEditing<Entry extends EntryShape, Draft>(
  item: EntryItemProps<Entry>,
  { noun, initialDraft, focusSelector, validate, isUnchanged, update, destroy }: EntryEditingOptions<Entry, Draft>,
): EntryEditing<Entry, Draft> {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(initialDraft);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const editFormRef = useRef<HTMLFormElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);

  const focusEditor = () => editFormRef.current?.querySelector<HTMLElement>(focusSelector)?.focus();

  const startEditing = () => {
    setDraft(initialDraft());
    setError(null);
    setEditing(true);
    requestAnimationFrame(focusEditor);
  };

  const stopEditing = () => {
    setEditing(false);
    setError(null);
    requestAnimationFrame(() => actionsRef.current?.querySelector('button')?.focus());
  };

  const save = async () => {
    if (saving) return;
    const invalid = validate?.(draft) ?? null;
    if (invalid !== null) {
      setError(invalid);
      focusEditor();
      return;
    }
    if (isUnchanged(draft)) {
      stopEditing();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      item.onUpdated(await update(draft));
      stopEditing();
    } catch (failure) {
      const message = getErrorMessage(failure, t(NOUN_TEXTS[noun].saveFailed));
      setError(message);
      notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (deleting || !window.confirm(t(NOUN_TEXTS[noun].confirmDelete))) return;
    setDeleting(true);
    try {
      await destroy();
      item.onDeleted(item.entry._id);
    } catch (failure) {
      notify.error(getErrorMessage(failure, t(NOUN_TEXTS[noun].deleteFailed)));
      setDeleting(false);
    }
  };

  return {
    noun,
    item,
    editing,
    draft,
    setDraft,
    error,
    setError,
    saving,
    deleting,
    editFormRef,
    actionsRef,
    startEditing,
    stopEditing,
    save,
    remove,
  };
}
