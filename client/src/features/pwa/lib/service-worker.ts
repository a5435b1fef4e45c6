/*
 * Registers the service worker (src/service-worker/sw.ts) once the page has loaded, so it never
 * competes with the first load, and tells the page when a new version has installed and is waiting.
 * The waiting version takes over only when the user agrees (applyUpdate: the page then reloads into
 * it) or once every tab of the app has closed: an open page keeps the code of the version it started
 * with, which the active worker still has precached (docs/decisions/offline.md).
 */

type Listener = () => void;
const listeners = new Set<Listener>();
let waiting: ServiceWorker | null = null;

function setWaiting(worker: ServiceWorker) {
  waiting = worker;
  for (const listener of listeners) listener();
}

export function subscribeUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const isUpdateWaiting = () => waiting !== null;

/** A check for a new version: on coming back online, on returning to the tab, and hourly. */
function watch(registration: ServiceWorkerRegistration) {
  const track = (worker: ServiceWorker | null) => {
    worker?.addEventListener('statechange', () => {
      // With no controller this is the first install, not an update.
      if (worker.state === 'installed' && navigator.serviceWorker.controller) setWaiting(worker);
    });
  };
  if (registration.waiting && navigator.serviceWorker.controller) setWaiting(registration.waiting);
  track(registration.installing);
  registration.addEventListener('updatefound', () => track(registration.installing));
  const check = () => void registration.update().catch(() => undefined);
  window.addEventListener('online', check);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  window.setInterval(check, 60 * 60 * 1000);
}

let started = false;

export function registerServiceWorker(): void {
  // The dev server has no built worker; browsers without service workers just stay online-only.
  if (started || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // The ticket widget's frame on another website: installing the app (and precaching it) there would spend the
  // visitor's data for a site they did not open.
  if (window.location.pathname.startsWith('/embed/')) return;
  started = true;
  const start = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(watch, () => undefined);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

/** Moves to the waiting version: the worker takes over, then the page reloads into the new build. */
export function applyUpdate(): void {
  if (!waiting) return;
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  });
  waiting.postMessage({ type: 'SKIP_WAITING' });
}
