import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../../lib/logger.js';
import type { EventDto } from './events.service.js';

/** What the client's server-side build (client/src/prerender.tsx → client/dist-ssr/prerender.js) exports. */
export interface AppShellRenderer {
  /** `language`: the reader's (lib/app-shell.ts shellLanguage); English when left out. */
  renderAppShell(event: Pick<EventDto, '_id' | 'title' | 'image' | 'date' | 'location' | 'status'>, language?: 'en' | 'sw'): string;
  SHELL_START: string;
  SHELL_END: string;
}

function isRenderer(value: unknown): value is AppShellRenderer {
  const module = value as Partial<AppShellRenderer> | null;
  return typeof module?.renderAppShell === 'function' && typeof module.SHELL_START === 'string' && typeof module.SHELL_END === 'string';
}

/**
 * Loads the client's shell renderer once, on first use. Without it (an older client build, or none)
 * event pages are served with the generic shell: slower first paint, nothing broken.
 */
export function lazyAppShellRenderer(modulePath: string, logger: Logger): () => Promise<AppShellRenderer | undefined> {
  let loading: Promise<AppShellRenderer | undefined> | undefined;
  return () =>
    (loading ??= (async () => {
      if (!existsSync(modulePath)) {
        logger.info(`no client shell renderer at ${modulePath}; event pages get the generic shell`);
        return undefined;
      }
      try {
        const loaded: unknown = await import(pathToFileURL(modulePath).href);
        if (isRenderer(loaded)) return loaded;
        logger.error(`${modulePath} does not export renderAppShell, SHELL_START and SHELL_END; event pages get the generic shell`);
      } catch (error) {
        logger.error(`could not load ${modulePath}; event pages get the generic shell`, error);
      }
      return undefined;
    })());
}

/** Replaces the generic shell between the renderer's markers with `shell` (rendered for one event). */
export function injectEventShell(html: string, markers: Pick<AppShellRenderer, 'SHELL_START' | 'SHELL_END'>, shell: string): string {
  const start = html.indexOf(markers.SHELL_START);
  const end = html.indexOf(markers.SHELL_END, start);
  if (start < 0 || end < 0) return html;
  return html.slice(0, start + markers.SHELL_START.length) + shell + html.slice(end);
}
