import { newId } from '../db/ids.js';
import { escapeHtml as xml } from '../lib/html.js';
import { eventImageKey, type ObjectStore } from '../modules/uploads/index.js';

/** Warm Kenyan-flag-and-savanna palettes; one is picked per event from its title. */
const palettes: [string, string, string][] = [
  ['#0b6e4f', '#08a045', '#f4d35e'],
  ['#9a031e', '#e36414', '#fb8b24'],
  ['#003049', '#1d7874', '#fcbf49'],
  ['#3c1642', '#086375', '#1dd3b0'],
  ['#6a040f', '#d00000', '#ffba08'],
  ['#14213d', '#4361ee', '#fca311'],
];

function hash(text: string): number {
  let h = 0;
  for (const char of text) h = (h * 31 + char.charCodeAt(0)) >>> 0;
  return h;
}

/** Greedy word wrap to at most `lines` lines of about `width` characters. */
function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  if (out.length > lines) {
    out.length = lines;
    out[lines - 1] = `${out[lines - 1]!.slice(0, width - 1)}…`;
  }
  return out;
}

export interface PosterEvent {
  title: string;
  location: string;
  startsAt: Date;
  ticketPrice: number;
}

/** A 1200×630 SVG poster (the Open Graph size) with the event's title, place and date (the price is shown by the app, so it never goes stale on the image). */
export function posterSvg(event: PosterEvent): string {
  const [dark, mid, accent] = palettes[hash(event.title) % palettes.length]!;
  const titleLines = wrap(event.title, 22, 3);
  // Numerals only ("03/12/2026 · 07:00", the Kenyan day/month order): one image serves readers in English and Kiswahili.
  const when = event.startsAt
    .toLocaleString('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })
    .replace(', ', ' · ');
  const seed = hash(event.location);
  const circles = Array.from({ length: 6 }, (_, i) => {
    const x = (seed >> (i * 3)) % 1200;
    const y = ((seed >> (i * 2)) * (i + 1)) % 630;
    return `<circle cx="${x}" cy="${y}" r="${60 + ((seed >> i) % 140)}" fill="${accent}" opacity="0.08"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img" aria-label="${xml(event.title)}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${mid}"/></linearGradient></defs>
  <rect width="1200" height="630" fill="url(#g)"/>${circles}
  <path d="M0 560 Q300 500 600 545 T1200 520 V630 H0 Z" fill="#000" opacity="0.25"/>
  <text x="80" y="120" fill="${accent}" font-family="Verdana, Arial, sans-serif" font-size="30" font-weight="bold" letter-spacing="6">TUKIO</text>
  ${titleLines.map((line, i) => `<text x="80" y="${220 + i * 80}" fill="#fff" font-family="Georgia, 'Times New Roman', serif" font-size="68" font-weight="bold">${xml(line)}</text>`).join('\n  ')}
  <text x="80" y="${250 + titleLines.length * 80}" fill="#fff" opacity="0.9" font-family="Verdana, Arial, sans-serif" font-size="30">${xml(when)}</text>
  <text x="80" y="${300 + titleLines.length * 80}" fill="#fff" opacity="0.8" font-family="Verdana, Arial, sans-serif" font-size="26">${xml(wrap(event.location, 60, 1)[0] ?? '')}</text>
</svg>
`;
}

/** Puts the poster in the event image store (DATA_DIR/uploads or the bucket) and returns the image path events store. */
export async function writeDemoPoster(store: ObjectStore, event: PosterEvent): Promise<string> {
  const name = `${newId()}.svg`;
  await store.put(eventImageKey(name), Buffer.from(posterSvg(event)), 'image/svg+xml');
  return `/uploads/${name}`;
}
