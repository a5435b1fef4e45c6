/**
 * The path of one page of a paged list (hooks/use-paged-list): `path` with its filters and the cursor
 * as the query, the empty ones left out. A first page without filters is then the plain path, which an
 * answer fetched early (./early-reads) serves.
 */
export function pagePath(path: string, cursor: string | null, filters: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
