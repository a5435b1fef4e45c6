import type { AddressInfo } from 'node:net';
import express from 'express';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/node/openapi.js';
import { listDeclaredRoutes, routeDeclarations, type RouteSpec } from '../src/node/route-declaration.js';

/**
 * The shared route declaration with rules of the test's own (each service supplies its own: the API
 * server's in server/src/lib/route-declaration.ts, the payment service's in its src/route-declaration.ts).
 */

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: object,
  ) {
    super('refused');
  }
}

const steps: string[] = [];
const declareRoutes = routeDeclarations<'open' | 'keyed'>({
  checkDeclaration: (spec, where) => {
    if (!spec.summary) throw new Error(`${where} has no summary`);
  },
  authorize: (spec, req) => {
    steps.push('gate');
    if (spec.access === 'keyed' && req.get('x-key') !== 'k') throw new Refused(401, { code: 'no_key' });
  },
  invalidInput: (problem) => new Refused(400, problem),
});

const app = express();
const router = express.Router();
const routes = declareRoutes(router, 'Things');
routes.post(
  '/things/:id',
  {
    summary: 'Make a thing',
    access: 'keyed',
    use: [
      express.json(),
      (_req, _res, next) => {
        steps.push('use');
        next();
      },
    ],
    params: z.object({ id: z.string().regex(/^\d+$/) }),
    body: z.object({ name: z.string().min(2) }),
    responses: { 201: 'Made.' },
  },
  ({ params, body }) => {
    steps.push('handler');
    return { id: params.id, name: body.name };
  },
);
routes.get('/open', { summary: 'Open', access: 'open', responses: { 200: 'Yes.' } }, () => ({ open: true }));
app.use('/api', router);
app.use(((error, _req, res, _next) => {
  if (error instanceof Refused) return void res.status(error.status).json(error.body);
  res.status(500).json({ error: String(error) });
}) as express.ErrorRequestHandler);

let base: string;
let server: ReturnType<typeof app.listen>;
beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const call = async (path: string, body?: unknown, key?: string) => {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-key': key } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('routeDeclarations', () => {
  it('runs the gate, then `use`, then the parse (the service makes its 400), then the handler; a returned value goes out with the first 2xx', async () => {
    steps.length = 0;
    expect(await call('/things/7', { name: 'lamp' })).toEqual({ status: 401, body: { code: 'no_key' } });
    expect(steps).toEqual(['gate']);
    steps.length = 0;
    expect(await call('/things/7', { name: 'x' }, 'k')).toEqual({
      status: 400,
      body: { message: 'name must be at least 2 characters.', field: 'name', params: { field: 'name', kind: 'too_short', min: 2 } },
    });
    expect(steps).toEqual(['gate', 'use']);
    expect((await call('/things/x', { name: 'lamp' }, 'k')).body).toMatchObject({ field: 'id', params: { kind: 'invalid_format' } });
    expect((await call('/things/7', { name: 'a\u0000b' }, 'k')).body).toMatchObject({ field: 'name', params: { kind: 'null_character' } });
    steps.length = 0;
    expect(await call('/things/7', { name: 'lamp' }, 'k')).toEqual({ status: 201, body: { id: '7', name: 'lamp' } });
    expect(steps).toEqual(['gate', 'use', 'handler']);
  });

  it('refuses a declaration the rules refuse, and one declared twice', () => {
    expect(() => routes.get('/x', { summary: '', access: 'open', responses: { 200: 'ok' } }, () => undefined)).toThrow(/no summary/);
    expect(() => routes.get('/open', { summary: 'Again', access: 'open', responses: { 200: 'ok' } }, () => undefined)).toThrow(/twice/);
  });

  it('lists the mounted declarations with their full paths, and documents them', () => {
    const declared = listDeclaredRoutes<RouteSpec<'open' | 'keyed'>>(app);
    expect(declared.map((route) => [route.method, route.fullPath, route.access, route.tag])).toEqual([
      ['post', '/api/things/:id', 'keyed', 'Things'],
      ['get', '/api/open', 'open', 'Things'],
    ]);
    const document = buildOpenApiDocument(declared, {
      info: { title: 'Test', version: '1' },
      describeAccess: (route) => (route.access === 'keyed' ? 'Needs the key.' : undefined),
      securityOf: (route) => (route.access === 'keyed' ? [{ key: [] }] : []),
      completeResponses: (route, responses) => {
        if (route.body && !responses.has(400)) responses.set(400, { description: 'Bad input.' });
      },
      errorSchema: z.object({ code: z.string() }),
      components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
    }) as unknown as { paths: Record<string, Record<string, { operationId: string; description: string; responses: object; requestBody?: unknown }>> };
    const post = document.paths['/api/things/{id}']!.post!;
    expect(post.operationId).toBe('postThingsId');
    expect(post.description).toBe('Needs the key.');
    expect(Object.keys(post.responses)).toEqual(['201', '400']);
    expect(post.requestBody).toMatchObject({ content: { 'application/json': { schema: { required: ['name'] } } } });
  });
});
