import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runWithRequestId } from '@tukio/shared/node/request-context';
import { ApiServerError, createApiServerClient } from '../src/api-server-client.js';

/**
 * The API server client sends pushes to record and results to settle in batches: one call at once when
 * none is on the way, the calls made meanwhile together in the next request, and each caller gets what
 * its own request would have answered. The API server's side of the batch routes is tested in
 * server/test/internal-batches.test.ts; here a recording server stands in for it, holding every request
 * until the test lets them go, so that calls made meanwhile have to wait.
 */

interface Received {
  path: string;
  requestId: string | undefined;
  items: Array<{ checkoutRequestId: string }>;
}

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function recordingServer() {
  const received: Received[] = [];
  let release: (() => void) | undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', async () => {
      const body = JSON.parse(text) as { items: Received['items'] };
      received.push({ path: req.url ?? '', requestId: req.headers['x-request-id'] as string | undefined, items: body.items });
      await released;
      const results = body.items.map((item) =>
        item.checkoutRequestId === 'ws_CO_unknown'
          ? { status: 404, body: { msg: 'No payment with that CheckoutRequestID.', message: 'No payment with that CheckoutRequestID.', code: 'payment_not_found' } }
          : { status: 200, body: { checkoutRequestId: item.checkoutRequestId, status: 'success', orderStatus: 'paid', ticketsIssued: 1, changed: true } },
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, received, release: () => release!() };
}

const result = (checkoutRequestId: string) => ({ checkoutRequestId, resultCode: 0, resultDesc: 'ok', source: 'callback' as const });

describe('API server client batches', () => {
  it('sends a call at once while fewer than four batches are on the way, the ones made meanwhile together, each answered as its own', async () => {
    const fake = await recordingServer();
    const api = createApiServerClient({ baseUrl: fake.baseUrl, internalApiKey: 'k'.repeat(32) });

    const alone = ['ws_CO_1', 'ws_CO_2', 'ws_CO_3', 'ws_CO_4'].map((id) => runWithRequestId(`request-${id}`, () => api.settle(result(id))));
    await expect.poll(() => fake.received.length).toBe(4);
    const later = ['ws_CO_a', 'ws_CO_unknown', 'ws_CO_b'].map((id) => runWithRequestId(`request-${id}`, () => api.settle(result(id))).then((answer) => answer, (error: unknown) => error));
    fake.release();

    expect(await Promise.all(alone)).toEqual(['ws_CO_1', 'ws_CO_2', 'ws_CO_3', 'ws_CO_4'].map((id) => expect.objectContaining({ checkoutRequestId: id, orderStatus: 'paid' })));
    const [a, unknown, b] = await Promise.all(later);
    expect(a).toMatchObject({ checkoutRequestId: 'ws_CO_a', changed: true });
    expect(b).toMatchObject({ checkoutRequestId: 'ws_CO_b', changed: true });
    expect(unknown).toBeInstanceOf(ApiServerError);
    expect((unknown as ApiServerError).status).toBe(404);
    expect((unknown as ApiServerError).message).toBe('No payment with that CheckoutRequestID.');

    expect(fake.received.map((request) => [request.path, request.items.map((item) => item.checkoutRequestId)])).toEqual([
      ...['ws_CO_1', 'ws_CO_2', 'ws_CO_3', 'ws_CO_4'].map((id) => ['/api/internal/payments/settle/batch', [id]]),
      ['/api/internal/payments/settle/batch', ['ws_CO_a', 'ws_CO_unknown', 'ws_CO_b']],
    ]);
    // A batch of one carries its request's id, as the call alone did; a batch made for several requests carries none.
    expect(fake.received.map((request) => request.requestId)).toEqual(['request-ws_CO_1', 'request-ws_CO_2', 'request-ws_CO_3', 'request-ws_CO_4', undefined]);
  });

  it('records pushes through their own batch route', async () => {
    const fake = await recordingServer();
    const api = createApiServerClient({ baseUrl: fake.baseUrl, internalApiKey: 'k'.repeat(32) });
    const pushes = Array.from({ length: 7 }, (_, index) => api.recordPush({ orderId: String(index).repeat(24), checkoutRequestId: `ws_CO_p${index}`, merchantRequestId: `m${index}` }));
    await expect.poll(() => fake.received.length).toBe(4);
    fake.release();
    await Promise.all(pushes);
    expect(fake.received.map((request) => [request.path, request.items.length])).toEqual([
      ...Array.from({ length: 4 }, () => ['/api/internal/payments/pushes/batch', 1]),
      ['/api/internal/payments/pushes/batch', 3],
    ]);
  });
});
