import { t } from '../../../lib/i18n';

/*
 * The server puts fixed English placeholders where words are gone: a hidden entry reads
 * '[hidden by a moderator]' (except to its author), a deleted post that still has replies '[deleted]'.
 * They are the app's words, not the author's, so they are shown in the reader's language.
 */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  '[hidden by a moderator]': 'community.hiddenContent',
  '[deleted]': 'community.deletedContent',
};

/** `text` as written, or the server's placeholder in the reader's language. */
export function shownText(text: string): string {
  const key = PLACEHOLDERS[text];
  return key ? t(key) : text;
}
