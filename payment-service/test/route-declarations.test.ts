import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../server/test/helpers/test-server.js';
import { loadPaymentConfig } from '../src/config.js';
import { startPaymentService, type RunningPaymentService } from '../src/start.js';
import { UNREACHABLE_DARAJA } from './helpers/daraja-simulator.js';
import { INTERNAL_KEY } from './helpers/stack.js';

/**
 * The payment service declares its routes as the API server does (@tukio/shared/node/route-declaration):
 * the declaration documents them at GET /api/docs/openapi.json, refuses a service call without the key and
 * a body that does not parse, and leaves the section-7 adapter's bodies to the API server. No API server
 * or M-Pesa is needed: nothing here gets that far (the adapter's calls find the API server unreachable).
 */

interface Operation {
  'x-access': string;
  security: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string }>;
}

let pay: RunningPaymentService;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tukio-pay-routes-'));
  pay = await startPaymentService(
    loadPaymentConfig({
      NODE_ENV: 'test',
      PAYMENT_PORT: '0',
      DATA_DIR: dataDir,
      // Nothing listens there.
      API_URL: `http://127.0.0.1:${await freePort()}`,
      INTERNAL_API_KEY: INTERNAL_KEY,
      RECONCILE_INTERVAL_MS: '0',
      LOG_LEVEL: 'silent',
      ...UNREACHABLE_DARAJA,
    }),
  );
});
afterAll(async () => {
  await pay?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const post = async (route: string, body: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${pay.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('GET /api/docs/openapi.json', () => {
  let doc: { openapi: string; info: { title: string }; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: object } };
  beforeAll(async () => {
    const res = await fetch(`${pay.url}/api/docs/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as typeof doc;
  });

  it("lists the service's routes, each with the access its declaration enforces", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toContain('payment service');
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['internalKey']);
    const access = Object.fromEntries(Object.entries(doc.paths).flatMap(([route, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${route}`, op['x-access']])));
    expect(access).toMatchObject({
      'POST /internal/stk-push': 'internal',
      'POST /internal/stk-query': 'internal',
      'POST /internal/passes/{pass}': 'internal',
      'POST /api/stkPush': 'public',
      'POST /api/confirmPayment': 'public',
      'GET /api/health': 'public',
      'POST /api/mpesa/callback/{secret}': 'daraja',
      'POST /api/mpesa/b2c/result/{secret}': 'daraja',
      'GET /api/docs/openapi.json': 'public',
    });
    const stkPush = doc.paths['/internal/stk-push']!.post!;
    expect(stkPush.security).toEqual([{ internalKey: [] }]);
    expect(stkPush.requestBody!.content['application/json']!.schema).toMatchObject({ required: expect.arrayContaining(['orderId', 'amount', 'phone']) });
    expect(Object.keys(stkPush.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    // The adapter's body is documented as the API server takes it, and nothing requires a field here.
    const adapter = doc.paths['/api/stkPush']!.post!;
    expect(adapter.security).toEqual([]);
    // The same schema as the API server's /pay/stkPush, a shared component.
    const ref = (adapter.requestBody!.content['application/json']!.schema as { $ref?: string }).$ref;
    expect(ref).toBe('#/components/schemas/StkPushRequest');
    const body = (doc as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas.StkPushRequest;
    expect(body).toMatchObject({ properties: expect.objectContaining({ phone: expect.anything(), Order_ID: expect.anything() }) });
    expect(body).not.toHaveProperty('required');
  });

  it('is served from memory, and /api/docs points to it', async () => {
    const again = await fetch(`${pay.url}/api/docs/openapi.json`);
    expect(await again.json()).toEqual(doc);
    expect(again.headers.get('cache-control')).toContain('max-age');
    const docs = await fetch(`${pay.url}/api/docs`, { redirect: 'manual' });
    expect(docs.status).toBe(302);
    expect(docs.headers.get('location')).toBe('/api/docs/openapi.json');
  });
});

describe('declared routes', () => {
  const push = JSON.stringify({ orderId: 'a'.repeat(24), amount: 30, phone: '254711222333', accountReference: 'Tukio', transactionDesc: 'Tickets' });

  it('/internal/stk-push without the key, or with a wrong one: 401 internal_only, before the body is read', async () => {
    const expected = { msg: 'This endpoint is for Tukio services only.', message: 'This endpoint is for Tukio services only.', code: 'internal_only' };
    expect(await post('/internal/stk-push', push)).toEqual({ status: 401, body: expected });
    expect(await post('/internal/stk-query', '{"not json', { 'x-internal-key': 'wrong' })).toEqual({ status: 401, body: expected });
  });

  it('a body that does not parse: 400 validation_failed naming the field and the problem', async () => {
    const key = { 'x-internal-key': INTERNAL_KEY };
    const missing = await post('/internal/stk-push', JSON.stringify({ ...JSON.parse(push), phone: undefined }), key);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'validation_failed', field: 'phone', params: { field: 'phone' } });
    expect(missing.body.msg).toMatch(/phone/i);
    const negative = await post('/internal/stk-push', JSON.stringify({ ...JSON.parse(push), amount: -5 }), key);
    expect(negative).toMatchObject({ status: 400, body: { code: 'validation_failed', field: 'amount', params: { field: 'amount', kind: 'too_small' } } });
    const query = await post('/internal/stk-query', '{}', key);
    expect(query).toMatchObject({ status: 400, body: { code: 'validation_failed', field: 'checkoutRequestId', params: { kind: 'required' } } });
    expect(query.body.msg).toBe(query.body.message);
  });

  it('the section-7 adapter refuses no body: whatever came goes on to the API server (unreachable here: 503)', async () => {
    for (const body of ['{}', '[1, 2]', JSON.stringify({ phone: 'abc\u0000', Order_ID: 42, extra: { deep: true } })]) {
      const answer = await post('/api/stkPush', body);
      expect(answer, body).toMatchObject({ status: 503, body: { code: 'service_unavailable' } });
      expect((await post('/api/confirmPayment', body)).body, body).toMatchObject({ code: 'payment_not_confirmed', success: false });
    }
  });

  it('GET /api/health answers as declared', async () => {
    const res = await fetch(`${pay.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', simulator: true });
  });
});
