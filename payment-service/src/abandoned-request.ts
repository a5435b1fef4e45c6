import type { Request, Response } from 'express';

/**
 * Aborted once nobody waits for this request's answer any more: its connection closed before the answer was
 * written (the API server's /pay proxy gave up and answered 504, the buyer's browser went away). A step that
 * may run late (after a slow Redis, API server or database) checks it first, so nothing the buyer was told
 * had failed happens afterwards: no seats held and no M-Pesa prompt on their phone minutes later.
 */
export function abandonedSignal(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  // Already gone: the connection closed while the request waited for its turn (its 'close' came before this).
  if (req.socket.destroyed || res.destroyed) controller.abort();
  else res.once('close', () => res.writableFinished || controller.abort());
  return controller.signal;
}
