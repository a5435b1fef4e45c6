import type { Translate } from './i18n/react';

/**
 * An erased account's username is the placeholder `deleted-<id>` (server/src/lib/personal-data.ts, `erasedValue`;
 * longer than any username can be, so no one can register it). Shown as "Deleted user" / "Mtumiaji aliyefutwa"
 * wherever an author or a contact is named (docs/decisions/data-rights.md, "Deleting an account").
 */
const DELETED_USERNAME = /^deleted-[0-9a-f]{24}$/;

export function displayName(t: Translate, username: string | null | undefined): string | undefined {
  if (username === null || username === undefined) return undefined;
  return DELETED_USERNAME.test(username) ? t('common.deletedUser') : username;
}
