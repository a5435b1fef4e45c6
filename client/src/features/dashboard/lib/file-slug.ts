/** A file name from an event title: letters and digits, dashes between, at most 60 characters. */
export function fileSlug(title: string): string {
  return title.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 60).toLowerCase() || 'event';
}
