/** Text for an HTML or SVG document (element content or a quoted attribute): the five special characters as character references. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
