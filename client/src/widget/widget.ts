/*
 * widget.js: the ticket widget an organiser pastes into any website (docs/decisions/widget.md):
 *   <script src="https://<tukio>/widget.js" data-event="<event id>" data-lang="sw"></script>
 * It puts an <iframe> of /embed/events/<id> on the Tukio origin right after the script tag, and sets its
 * height from the framed page's messages. Plain DOM, no framework: the host page loads a few kilobytes
 * (built as an IIFE by client/vite.widget.config.ts; the build fails above 30 KB gzip).
 * Origin isolation: the checkout runs inside the frame, on Tukio's origin; the host page only ever
 * receives heights, and only messages from our frame's window and Tukio's origin are read.
 */
import { frameHeight, isHeightMessage, isWidgetEventId, measureMessage, pickWidgetLanguage, type WidgetLanguage } from '../lib/widget-protocol';

/** The frame's accessible name (its title), in the widget's language. The only texts widget.js shows. */
const FRAME_TITLE: Record<WidgetLanguage, string> = {
  en: 'Tukio tickets',
  sw: 'Tiketi za Tukio',
};

/** Height before the framed page has said its own: room for the ticket box without a jump on most events. */
const FIRST_HEIGHT = 420;

function mount(script: HTMLScriptElement): void {
  const eventId = script.getAttribute('data-event');
  if (!isWidgetEventId(eventId)) {
    console.error('Tukio widget: data-event must be the event id from its Tukio address (/events/<id>).');
    return;
  }
  const tukioOrigin = new URL(script.src, document.baseURI).origin;
  const language = pickWidgetLanguage(script.getAttribute('data-lang'), navigator.languages ?? [navigator.language]);

  const frame = document.createElement('iframe');
  frame.src = `${tukioOrigin}/embed/events/${encodeURIComponent(eventId)}?lang=${language}`;
  frame.title = FRAME_TITLE[language];
  frame.lang = language;
  frame.className = 'tukio-widget';
  frame.style.cssText = `display:block;width:100%;max-width:520px;height:${FIRST_HEIGHT}px;border:0;overflow:hidden;color-scheme:normal`;
  script.after(frame);

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    // Our frame's window, on Tukio's origin, in the one shape we read; anything else is not ours.
    if (event.origin !== tukioOrigin || event.source !== frame.contentWindow || !isHeightMessage(event.data)) return;
    frame.style.height = `${frameHeight(event.data.height)}px`;
  });
  // A narrower or wider page reflows the ticket box: ask the frame for its height again.
  let lastWidth = frame.clientWidth;
  window.addEventListener('resize', () => {
    if (frame.clientWidth === lastWidth) return;
    lastWidth = frame.clientWidth;
    frame.contentWindow?.postMessage(measureMessage(), tukioOrigin);
  });
}

const current = document.currentScript;
if (current instanceof HTMLScriptElement) mount(current);
else console.error('Tukio widget: load widget.js with a plain <script src> tag (not as a module).');
