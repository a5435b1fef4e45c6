import express from 'express';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, toOpenApiPath } from '../src/lib/openapi.js';
import { declareRoutes } from '../src/lib/route-declaration.js';
import { createErrorHandler } from '../src/lib/error-handler.js';
import { createLogger } from '../src/lib/logger.js';
import { dayFromNow } from './helpers/events.js';
import { declaredApiRoutes, mountedApiRoutes } from './helpers/security.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

type JsonSchema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  'x-access': string;
  security: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

/**
 * GET /api/docs/openapi.json is generated from the route declarations (the zod schemas the routes validate with). This file is
 * the CI check: the document must be OpenAPI 3 in shape, list exactly the routes the app mounts (a
 * new route without a declaration next to it fails here), say who may call each route as the
 * authorization matrix does, and describe request bodies the way validation really behaves.
 */

let t: TestServer;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await startTestServer();
  const res = await t.api('GET', '/api/docs/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body as OpenApiDocument;
});
afterAll(async () => {
  await t?.close();
});

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op: op as Operation })));

describe('GET /api/docs/openapi.json', () => {
  it('is an OpenAPI 3 document: version, info, paths, responses for every operation, every path parameter declared', () => {
    expect(doc.openapi).toMatch(/^3\.[01]\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(typeof doc.info.version).toBe('string');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(40);
    expect(Object.keys(doc.components.securitySchemes as object).sort()).toEqual(['apiKeyBearer', 'apiKeyHeader', 'bearerAuth', 'internalKey']);

    const problems: string[] = [];
    const ids = new Set<string>();
    const schemas = doc.components.schemas as Record<string, JsonSchema>;
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!path.startsWith('/api/') || path.includes(':')) problems.push(`${where}: not an OpenAPI /api path`);
      if (!(METHODS as readonly string[]).includes(method)) problems.push(`${where}: unknown method`);
      if (!op.summary) problems.push(`${where}: no summary`);
      if (!op.tags?.length) problems.push(`${where}: no tag`);
      if (ids.has(op.operationId)) problems.push(`${where}: duplicate operationId ${op.operationId}`);
      ids.add(op.operationId);
      const statuses = Object.keys(op.responses ?? {});
      if (!statuses.length) problems.push(`${where}: no responses`);
      if (!statuses.some((status) => status.startsWith('2'))) problems.push(`${where}: no success response`);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!/^[1-5]\d\d$/.test(status) || !response.description) problems.push(`${where} ${status}: bad response`);
      }
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      for (const name of inPath) {
        const parameter = declared.find((p) => p.name === name);
        if (!parameter) problems.push(`${where}: path parameter ${name} not declared`);
        else if (!parameter.required || !parameter.schema) problems.push(`${where}: path parameter ${name} must be required with a schema`);
      }
      for (const parameter of declared) if (!inPath.includes(parameter.name)) problems.push(`${where}: declares path parameter ${parameter.name} not in the path`);
      JSON.stringify(op, (key, value: unknown) => {
        if (key === '$ref' && (typeof value !== 'string' || !schemas[value.replace('#/components/schemas/', '')])) problems.push(`${where}: dangling $ref ${String(value)}`);
        return value;
      });
      if (JSON.stringify(op).includes('"$schema"')) problems.push(`${where}: embedded $schema`);
    }
    expect(problems).toEqual([]);
  });

  it('documents every route the app mounts under /api, and nothing else', () => {
    const mounted = mountedApiRoutes(t).map((route) => `${route.method} ${toOpenApiPath(route.path)}`);
    const documented = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(mounted.filter((key) => !documented.includes(key)), 'mounted routes with no declaration (declareRoutes)').toEqual([]);
    expect(documented.filter((key) => !mounted.includes(key)), 'documented routes that are not mounted').toEqual([]);
    expect(mounted.length).toBe(documented.length);
  });

  it('says who may call each route as its declaration does, with the matching security scheme', () => {
    const routes = declaredApiRoutes(t);
    const declared = new Map(routes.map((route) => [`${route.method.toUpperCase()} ${toOpenApiPath(route.fullPath)}`, route.access]));
    // Organisers' API keys open /api/v1 (docs/decisions/webhooks.md): those operations name the key schemes instead.
    const byKey = new Set(routes.filter((route) => route.apiKey).map((route) => `${route.method.toUpperCase()} ${toOpenApiPath(route.fullPath)}`));
    for (const { method, path, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op['x-access'], where).toBe(declared.get(where));
      const expected = byKey.has(where) ? ['apiKeyBearer', 'apiKeyHeader'] : op['x-access'] === 'public' ? [] : op['x-access'] === 'internal' ? ['internalKey'] : ['bearerAuth'];
      expect(op.security.flatMap((requirement) => Object.keys(requirement)), where).toEqual(expect.arrayContaining(expected));
    }
  });

  it('register: the body schema is the one validation applies (required fields, lengths)', async () => {
    const schema = doc.paths['/api/auth/register']!.post!.requestBody!.content['application/json']!.schema as {
      required: string[];
      properties: Record<string, { minLength?: number; maxLength?: number }>;
    };
    expect([...schema.required].sort()).toEqual(['email', 'password', 'username']);
    let n = 0;
    const valid = () => {
      n += 1;
      return { username: `docs${n}x`, email: `docs${n}x@example.com`, password: 'long-enough' } as Record<string, string>;
    };
    const register = (body: Record<string, string>) => t.api('POST', '/api/auth/register', { body });

    for (const field of Object.keys(schema.properties)) {
      const body = valid();
      delete body[field];
      const res = await register(body);
      expect(res.body.status, `register without ${field}`).toBe(schema.required.includes(field) ? false : true);
    }
    expect((await register(valid())).body.status).toBe(true);

    const password = schema.properties.password!;
    expect(password.minLength).toBe(6);
    expect((await register({ ...valid(), password: 'x'.repeat(password.minLength! - 1) })).body).toMatchObject({ status: false, field: 'password' });
    expect((await register({ ...valid(), password: 'x'.repeat(password.minLength!) })).body.status).toBe(true);
    const username = schema.properties.username!;
    expect((await register({ ...valid(), username: 'u'.repeat(username.maxLength! + 1) })).body).toMatchObject({ status: false, field: 'username' });
    expect((await register({ ...valid(), username: `u${'v'.repeat(username.maxLength! - 1)}` })).body.status).toBe(true);
  });

  it('create event: each documented required field is refused when missing (400 naming it), and the answer has the documented Event shape', async () => {
    const { token } = await t.createUser('docsorganiser');
    const op = doc.paths['/api/events/addevnt']!.post!;
    const schema = op.requestBody!.content['application/json']!.schema as { required: string[]; properties: Record<string, unknown> };
    expect([...schema.required].sort()).toEqual(['date', 'description', 'location', 'title']);
    const body: Record<string, unknown> = { title: 'Docs night', description: 'About the API', date: dayFromNow(9), location: 'Nairobi' };
    for (const field of schema.required) {
      const { [field]: _dropped, ...rest } = body;
      const res = await t.api('POST', '/api/events/addevnt', { token, body: rest });
      expect(res.status, `without ${field}`).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const created = await t.api('POST', '/api/events/addevnt', { token, body });
    expect(created.status).toBe(201);
    expect(Object.keys(op.responses)).toContain('201');

    const event = (doc.components.schemas as Record<string, { required: string[]; properties: Record<string, unknown> }>).Event!;
    expect(Object.keys(created.body).filter((key) => !(key in event.properties)), 'fields the Event schema does not list').toEqual([]);
    expect(event.required.filter((key) => !(key in created.body)), 'required Event fields missing from the answer').toEqual([]);
  });

  it('login: the documented User is what the API sends', async () => {
    const { user } = await t.loginAdmin();
    const shape = (doc.components.schemas as Record<string, { required: string[]; properties: Record<string, unknown> }>).User!;
    expect(Object.keys(user).sort()).toEqual(Object.keys(shape.properties).sort());
    expect([...shape.required].sort()).toEqual(Object.keys(user).sort());
  });

  it('is built once and served from memory', async () => {
    const again = await t.api('GET', '/api/docs/openapi.json');
    expect(again.body).toEqual(doc);
    expect(again.headers.get('cache-control')).toContain('max-age');
  });
});

describe('GET /api/docs', () => {
  it('is the interactive reference: an HTML page whose scripts are files of this server (no inline script, no CDN), under the CSP', async () => {
    const res = await t.api('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = res.body as string;
    expect(html).toMatch(/^<!doctype html>/);
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(body!.trim(), 'inline script').toBe('');
      expect(attributes).toMatch(/src="\/api\/docs\/assets\/[a-z-]+\.js"/);
    }
    const assets = [...html.matchAll(/(?:src|href)="(\/api\/docs\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const file = await fetch(`${t.url}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('content-type'), asset).toMatch(asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect((await file.text()).length, asset).toBeGreaterThan(20);
    }
    // The start script points the reference at this server's document.
    const start = await fetch(`${t.url}/api/docs/assets/start.js`);
    expect(await start.text()).toContain("'/api/docs/openapi.json'");
    // Nothing else of the package is served.
    expect((await fetch(`${t.url}/api/docs/assets/index.html`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/docs/assets/..%2Fpackage.json`)).status).toBe(404);
  });
});

describe('declareRoutes: one declaration authorizes, validates, answers and documents', () => {
  const user = { id: 'a'.repeat(24), username: 'someone', email: 'someone@example.com', role: 'user' as const };
  const admin = { ...user, id: 'b'.repeat(24), role: 'admin' as const };

  /** A tiny app with one router of declared routes; `as` picks the caller like authenticateRequests would. */
  async function demo(register: (routes: ReturnType<typeof declareRoutes>) => void) {
    const app = express();
    app.use(express.json());
    app.use((req, _res, next) => {
      const as = req.get('x-as');
      if (as === 'user') req.user = user as never;
      if (as === 'admin') req.user = admin as never;
      next();
    });
    const router = express.Router();
    register(declareRoutes(router, 'Demo', { internalKey: 'the-internal-key' }));
    router.get('/undeclared', (_req, res) => void res.json([]));
    app.use('/api/demo', router);
    app.use(createErrorHandler(createLogger('silent')));
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as { port: number }).port;
    const call = async (method: string, path: string, options: { as?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/demo${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(options.as ? { 'x-as': options.as } : {}), ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
    };
    return { app, call, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('runs the gate before validation, hands the handler parsed input, and sends its value with the declared 2xx', async () => {
    const body = z.object({ name: z.string().trim().min(1).transform((value) => value.toUpperCase()) });
    const params = z.object({ id: z.string().regex(/^\d+$/, 'id must be digits.') });
    const demoApp = await demo((routes) => {
      routes.post('/things/:id', { summary: 'Make a thing', access: 'user', params, body, responses: { 201: 'Made.' } }, ({ params, body, user }) => ({ id: params.id, name: body.name, by: user.id }));
      routes.delete('/things/:id', { summary: 'Remove a thing', access: 'admin', params, responses: { 200: 'Gone.' } }, ({ params }) => ({ gone: params.id }));
      routes.get('/people/:userId/things', { summary: 'Own things', access: 'self', self: ({ params }) => params.userId, params: z.object({ userId: z.string() }), responses: { 200: 'Listed.' } }, () => []);
      routes.post('/notes', { summary: 'A note, maybe naming its author', access: 'user', self: ({ body }) => body.userId, body: z.object({ userId: z.string().optional() }), responses: { 200: 'Noted.' } }, () => ({ noted: true }));
      routes.post('/settle', { summary: 'Service call', access: 'internal', responses: { 200: 'Settled.' } }, () => ({ settled: true }));
    });
    try {
      const { call } = demoApp;
      expect((await call('POST', '/things/7', { body: {} })).status, 'no token: 401 before validation').toBe(401);
      const invalid = await call('POST', '/things/7', { as: 'user', body: { name: '  ' } });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ field: 'name' });
      expect((await call('POST', '/things/x', { as: 'user', body: { name: 'a' } })).body).toMatchObject({ field: 'id', msg: 'id must be digits.' });
      const made = await call('POST', '/things/7', { as: 'user', body: { name: ' lamp ' } });
      expect(made).toEqual({ status: 201, body: { id: '7', name: 'LAMP', by: user.id } });

      expect((await call('DELETE', '/things/7', { as: 'user' })).status).toBe(403);
      expect(await call('DELETE', '/things/7', { as: 'admin' })).toEqual({ status: 200, body: { gone: '7' } });

      expect((await call('GET', `/people/${admin.id}/things`, { as: 'user' })).status, 'another account').toBe(403);
      expect((await call('GET', `/people/${user.id}/things`, { as: 'admin' })).status, 'admin without allowAdmin').toBe(403);
      expect((await call('GET', `/people/${user.id}/things`, { as: 'user' })).status).toBe(200);

      expect((await call('POST', '/notes', { as: 'user', body: {} })).status, 'id left out').toBe(200);
      expect((await call('POST', '/notes', { as: 'user', body: { userId: user.id } })).status).toBe(200);
      expect((await call('POST', '/notes', { as: 'user', body: { userId: admin.id } })).status, "someone else's id").toBe(403);

      expect((await call('POST', '/settle', { as: 'admin' })).status, 'internal route without the key').toBe(401);
      expect((await call('POST', '/settle', { headers: { 'x-internal-key': 'wrong' } })).status).toBe(401);
      expect(await call('POST', '/settle', { headers: { 'x-internal-key': 'the-internal-key' } })).toEqual({ status: 200, body: { settled: true } });

      // The document: declared routes only (the undeclared one stays out, and the route check above fails on it), with the input side of the schemas.
      const built = buildOpenApi(demoApp.app) as unknown as OpenApiDocument;
      expect(Object.keys(built.paths).sort()).toEqual(['/api/demo/notes', '/api/demo/people/{userId}/things', '/api/demo/settle', '/api/demo/things/{id}']);
      const post = built.paths['/api/demo/things/{id}']!.post!;
      expect(post.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
      expect(post.requestBody!.content['application/json']!.schema).toMatchObject({ type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] });
      expect(Object.keys(post.responses)).toEqual(['201', '400', '401']);
      expect(post['x-access']).toBe('user');
      expect(Object.keys(built.paths['/api/demo/things/{id}']!.delete!.responses)).toEqual(['200', '400', '401', '403']);
    } finally {
      await demoApp.close();
    }
  });

  it('refuses a declaration that cannot be enforced', () => {
    const routes = declareRoutes(express.Router(), 'Demo');
    const handler = () => undefined;
    expect(() => routes.get('/x', { summary: 'x', access: 'self', responses: { 200: 'ok' } }, handler)).toThrow(/which input/);
    expect(() => routes.get('/y', { summary: 'y', access: 'internal', responses: { 200: 'ok' } }, handler)).toThrow(/internal key/);
    routes.get('/z', { summary: 'z', access: 'public', responses: { 200: 'ok' } }, handler);
    expect(() => routes.get('/z', { summary: 'z', access: 'public', responses: { 200: 'ok' } }, handler)).toThrow(/twice/);
  });
});
