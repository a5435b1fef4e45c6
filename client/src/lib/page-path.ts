/** The path of one page of a paged list: `path` with its filters and the cursor as the query, the empty ones left out. */
export function pagePath(path: string, cursor: string | null, filters: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
