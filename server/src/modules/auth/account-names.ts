import unhomoglyph from 'unhomoglyph';

/**
 * How usernames and emails are compared: NFKC folds compatibility forms (fullwidth `ａｍａｎｉ`,
 * ligatures) into their plain letters, then case is ignored. Rate-limit keys use it too, so
 * `Amani` and `ＡＭＡＮＩ` spend one account's budget.
 */
export function normaliseAccountName(value: string): string {
  return value.normalize('NFKC').trim().toLowerCase();
}

/**
 * The Unicode TR39 confusable skeleton of a username (NFD, each character replaced by its prototype from
 * confusables.txt via `unhomoglyph`, NFD again), taken of its normalised form. Two names with one
 * skeleton look alike (`amani` and `аmani` with a Cyrillic а; `rn` and `m`), so only one may exist:
 * `users.username_skeleton` has a unique index.
 */
export function usernameSkeleton(username: string): string {
  return unhomoglyph(normaliseAccountName(username).normalize('NFD')).normalize('NFD');
}
