import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../../lib/logger.js';
import type { EventDto } from './events.service.js';

/** What the client's server-side build (client/src/prerender.tsx → client/dist-ssr/prerender.js) exports. */
export interface EventShellRenderer {
  renderEventShell(event: Pick<EventDto, '_id' | 'title' | 'image' | 'date' | 'location' | 'status'>, language?: 'en' | 'sw'): string;
}

const isRenderer = (value: unknown): value is EventShellRenderer => typeof (value as Partial<EventShellRenderer> | null)?.renderEventShell === 'function';

/**
 * Loads the client's event shell renderer once, on first use. Without it (an older client build, or none)
 * event pages are served with the empty shell: slower first paint, nothing broken.
 */
export function lazyEventShellRenderer(modulePath: string, logger: Logger): () => Promise<EventShellRenderer | undefined> {
  let loading: Promise<EventShellRenderer | undefined> | undefined;
  return () =>
    (loading ??= (async () => {
      if (!existsSync(modulePath)) {
        logger.info(`no client shell renderer at ${modulePath}; event pages get the empty shell`);
        return undefined;
      }
      try {
        const loaded: unknown = await import(pathToFileURL(modulePath).href);
        if (isRenderer(loaded)) return loaded;
        logger.error(`${modulePath} does not export renderEventShell; event pages get the empty shell`);
      } catch (error) {
        logger.error(`could not load ${modulePath}; event pages get the empty shell`, error);
      }
      return undefined;
    })());
}
