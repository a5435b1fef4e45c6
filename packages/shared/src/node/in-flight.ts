import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * Counts the requests Express is answering, so a shutdown can let them finish (drain) before it
 * closes connections and the database. Once draining, responses carry `Connection: close`: a
 * keep-alive client opens its next request elsewhere instead of holding this instance open.
 * Socket.IO's own requests never reach Express, so a long poll does not hold a shutdown up.
 */
export function createInFlightTracker() {
  const active = new Set<ServerResponse>();
  let draining = false;
  let idleWaiters: Array<() => void> = [];
  const settle = (res: ServerResponse) => {
    active.delete(res);
    if (active.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };
  const middleware: RequestHandler = (_req, res, next) => {
    active.add(res);
    // 'close' fires for finished and for aborted responses alike, exactly once.
    res.once('close', () => settle(res));
    if (draining) res.setHeader('Connection', 'close');
    next();
  };
  return {
    middleware,
    get active() {
      return active.size;
    },
    get draining() {
      return draining;
    },
    /** Stops keep-alive on new responses; resolves true once no request is in flight, false after `timeoutMs`. */
    drain(timeoutMs: number): Promise<boolean> {
      draining = true;
      for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close');
      if (active.size === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        idleWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}

export type InFlightTracker = ReturnType<typeof createInFlightTracker>;
