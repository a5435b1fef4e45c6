import { useEffect } from 'react';
import { heightMessage, isMeasureMessage } from '../../../lib/widget-protocol';

/**
 * Inside the widget's frame (/embed/events/:id): tells the host page (widget.js) the height this page needs,
 * whenever it changes, so the frame grows with the ticket box and never scrolls. An open payment dialog sits
 * in the top layer, outside the page's flow: its own height counts too, or a short frame would squeeze it.
 * Only the parent window's "measure" message, in its exact shape, is answered; only a number is ever sent.
 */
export function useFrameHeight(): void {
  useEffect(() => {
    const parent = window.parent;
    if (parent === window) return; // opened on its own, not framed
    let frame = 0;
    let last = -1;
    const measure = () => {
      // The body's own height, not the document's scrollHeight: that one is never below the frame's current height,
      // so the frame could grow (a dialog opened) but never shrink back.
      const page = document.body.getBoundingClientRect().height;
      const dialogs = [...document.querySelectorAll('dialog[open]')].map((dialog) => dialog.scrollHeight + 32);
      return Math.max(page, ...dialogs);
    };
    const report = (force = false) => {
      window.cancelAnimationFrame(frame);
      frame = window.requestAnimationFrame(() => {
        const height = measure();
        if (!force && height === last) return;
        last = height;
        // Any origin may embed the widget, so the target cannot be named; a height tells it nothing.
        parent.postMessage(heightMessage(height), '*');
      });
    };
    const resized = new ResizeObserver(() => report());
    resized.observe(document.body);
    // A dialog opening or closing (its `open` attribute), or content swapped in.
    const changed = new MutationObserver(() => report());
    changed.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
    const onMessage = (event: MessageEvent<unknown>) => {
      if (event.source === parent && isMeasureMessage(event.data)) report(true);
    };
    window.addEventListener('message', onMessage);
    report(true);
    return () => {
      window.cancelAnimationFrame(frame);
      resized.disconnect();
      changed.disconnect();
      window.removeEventListener('message', onMessage);
    };
  }, []);
}
