/**
 * A signed-in page painted before React has loaded: the page the server sent carries the top of /profile
 * with nobody in it (src/prerender.tsx, `<template id="route-shell-profile">`); with a stored session the
 * route preloader (src/preload-route.ts) fills in the user's avatar and name and shows it in place of the
 * loading indicator once the route's stylesheets have loaded (so nothing moves when they apply). React
 * renders the same card over it. On a slow phone the user sees themselves seconds before the app runs.
 * Framework-free: it runs before React has loaded.
 */
import { avatarSrc } from '../lib/avatar-src';
import { getSessionSnapshot } from '../lib/session-store';
import type { RouteMatch } from './route-match';

/**
 * Shows the shell the page carries for `route` (`#route-shell-<route module's file name>`), if any, filled in.
 * Settles once it is painted, or once it is clear it will not be.
 */
export function paintRouteShell(route: RouteMatch, stylesheets: string[]): Promise<void> {
  const template = document.getElementById(`route-shell-${route.routeFile}`);
  const main = document.getElementById('main-content');
  const { user, isLoggedIn, isAvatarImageSet } = getSessionSnapshot();
  // Without a session (or an avatar) the page sends the visitor elsewhere: the loading indicator stays.
  if (!(template instanceof HTMLTemplateElement) || !main || !user || !isLoggedIn || !isAvatarImageSet) return Promise.resolve();
  const applied = stylesheets.map(
    (href) =>
      new Promise<void>((resolve, reject) => {
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        link.crossOrigin = '';
        link.href = href;
        link.addEventListener('load', () => resolve());
        link.addEventListener('error', () => reject(new Error(`${href} did not load`)));
        document.head.append(link);
      }),
  );
  return Promise.all(applied).then(
    async () => {
      // React has rendered the page meanwhile (a fast device): its DOM is not ours to touch.
      if (!main.isConnected) return;
      const page = template.content.cloneNode(true) as DocumentFragment;
      const avatar = page.querySelector('.profile-card__avatar');
      let image: HTMLImageElement | undefined;
      if (avatar && user.avatarImage) {
        image = document.createElement('img');
        image.className = 'avatar-image profile-card__avatar';
        image.width = image.height = 112;
        image.alt = '';
        image.src = avatarSrc(user.avatarImage);
        avatar.replaceWith(image);
      }
      const name = page.querySelector('.profile-card__name');
      if (name) name.textContent = user.username;
      main.replaceChildren(page);
      // Settles once the card, avatar included, is on the screen: what comes next (the route's code, its
      // reads) would otherwise share the phone's bandwidth and main thread with decoding and painting it.
      await image?.decode().catch(() => undefined);
      await afterNextPaint();
    },
    () => undefined, // no stylesheet, no early card: React shows the page as usual
  );
}

/** Resolves just after the browser has painted the next frame (a timer set in a frame callback runs after its paint). */
function afterNextPaint(): Promise<void> {
  // A tab opened in the background paints nothing (and runs no frame callbacks) until it is shown: nothing to wait for.
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
