import express from 'express';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocs, buildOpenApi, toOpenApiPath, type JsonSchema, type OpenApiDocument, type Operation } from '../src/lib/openapi.js';
import { dayFromNow } from './helpers/events.js';
import { routeKey, routeTable } from './helpers/route-table.js';
import { mountedApiRoutes } from './helpers/security.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

/**
 * GET /api/docs/openapi.json is generated from the zod schemas the handlers parse with. This file is
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
    expect(Object.keys(doc.components.securitySchemes as object).sort()).toEqual(['bearerAuth', 'internalKey']);

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
    expect(mounted.filter((key) => !documented.includes(key)), 'mounted routes with no apiDocs(...) declaration next to them').toEqual([]);
    expect(documented.filter((key) => !mounted.includes(key)), 'documented routes that are not mounted').toEqual([]);
    expect(mounted.length).toBe(documented.length);
  });

  it('says who may call each route as the authorization matrix does', () => {
    // The matrix (test/helpers/route-table.ts) proves its classification against every actor; the doc must not contradict it.
    const kind = (access: string) => (access === 'public' || access === 'admin' || access === 'internal' ? access : 'signed-in or mixed');
    const docAccess = new Map(operations().map(({ method, path, op }) => [`${method.toUpperCase()} ${path}`, op['x-access']]));
    const mismatches = routeTable
      .map((entry) => ({ key: routeKey({ method: entry.method, path: toOpenApiPath(entry.path) }), table: entry.access }))
      .filter(({ key, table }) => kind(docAccess.get(key) ?? 'missing') !== kind(table))
      .map(({ key, table }) => `${key}: matrix ${table}, doc ${docAccess.get(key) ?? 'missing'}`);
    expect(mismatches).toEqual([]);
    for (const { method, path, op } of operations()) {
      const expected = op['x-access'] === 'public' ? [] : op['x-access'] === 'internal' ? ['internalKey'] : ['bearerAuth'];
      expect(op.security.flatMap((requirement) => Object.keys(requirement)), `${method} ${path}`).toEqual(expect.arrayContaining(expected));
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
  it('is an HTML page listing every operation, with no script, under the CSP', async () => {
    const res = await t.api('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = res.body as string;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script/i);
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('POST /api/auth/register');
    for (const { method, path } of operations()) expect(text, `${method} ${path}`).toContain(`${method.toUpperCase()} ${path}`);
    // Anchors per tag and per operation; schemas escaped.
    expect(html).toContain('href="#tag-accounts"');
    expect(html).toContain(`id="op-${doc.paths['/api/auth/register']!.post!.operationId}"`);
    expect(html).toContain('Bearer &lt;token&gt;');
    expect(html).not.toContain('Bearer <token>');
  });
});

describe('buildOpenApi', () => {
  it('leaves out a mounted route nobody documented and keeps a declaration whose route does not exist, so the route check fails on both', () => {
    const app = express();
    const router = express.Router();
    const docs = apiDocs(router, 'Demo');
    const body = z.object({ name: z.string().trim().min(1).transform((value) => value.toUpperCase()) });
    docs.post('/things/:id', { summary: 'Make a thing', auth: 'user', body, responses: { 201: 'Made.' } });
    router.post('/things/:id', (_req, res) => void res.status(201).end());
    router.get('/things', (_req, res) => void res.json([]));
    docs.delete('/things/:id', { summary: 'Never mounted', auth: 'admin', responses: { 200: 'Gone.' } });
    app.use('/api/demo', router);

    const built = buildOpenApi(app);
    expect(Object.keys(built.paths)).toEqual(['/api/demo/things/{id}']);
    const post = built.paths['/api/demo/things/{id}']!.post!;
    expect(post.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    // The input side of a schema with a transform.
    expect(post.requestBody!.content['application/json']!.schema).toMatchObject({ type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] });
    expect(Object.keys(post.responses)).toEqual(['201', '400', '401']);
    expect(built.paths['/api/demo/things/{id}']!.delete).toBeDefined();
    expect(built.paths['/api/demo/things']).toBeUndefined();
  });
});
