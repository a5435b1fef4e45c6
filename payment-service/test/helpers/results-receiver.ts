import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { PayoutResultBody } from '@tukio/shared/internal-payouts';

/**
 * Stands in for the API server's POST /api/internal/payouts/results: records every call, answers 500 to the first
 * `failFirst` ones (and to all while `down`), then 200 `{recorded}` — true the first time a result is seen; an
 * attempt given to `refuse` is answered that status every time (as the API server refuses a doubtful result).
 * Anything else (the reconciler's calls) is answered 404.
 */
export async function startResultsReceiver(options: { internalKey: string; failFirst: number }) {
  const calls: Array<{ body: PayoutResultBody; status: number }> = [];
  const recorded = new Map<string, PayoutResultBody>();
  let failuresLeft = options.failFirst;
  let down = false;
  const refused = new Map<string, number>();
  const app = express();
  app.post('/api/internal/payouts/results', express.json(), (req, res) => {
    const body = req.body as PayoutResultBody;
    const status = req.get('x-internal-key') !== options.internalKey ? 401 : (refused.get(body.originatorConversationId) ?? (down || failuresLeft > 0 ? 500 : 200));
    if (status === 500 && !down && !refused.has(body.originatorConversationId)) failuresLeft -= 1;
    calls.push({ body, status });
    if (status !== 200) return void res.status(status).json({ message: 'Not now (test receiver).' });
    const key = `${body.originatorConversationId}|${body.source}|${body.resultCode}`;
    const fresh = !recorded.has(key);
    if (fresh) recorded.set(key, body);
    res.json({ recorded: fresh });
  });
  app.use((_req, res) => void res.status(404).json({ message: 'Not here (test receiver).' }));
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    /** Acknowledged results of `attempt`, oldest first. */
    resultsOf: (attempt: string) => [...recorded.values()].filter((result) => result.originatorConversationId === attempt),
    /** Calls made for `attempt`, answered or refused. */
    callsFor: (attempt: string) => calls.filter((call) => call.body.originatorConversationId === attempt),
    /** Every result of `attempt` is answered `status` from now on. */
    refuse: (attempt: string, status: number) => void refused.set(attempt, status),
    setDown(value: boolean) {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
