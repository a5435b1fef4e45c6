import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { z } from 'zod';
import { listRouteLayers } from './routes.js';

/**
 * OpenAPI 3.1 for the API server, generated from the zod schemas the handlers validate with.
 *
 * Each routes file declares its operations next to the routes, with the same schema objects it hands
 * to `parse()`:
 *
 *     const doc = apiDocs(router, 'Accounts');
 *     doc.post('/register', { summary: 'Create an account', auth: 'public', body: registerBody, responses: { 200: … } });
 *     router.post('/register', …, parse(registerBody, req.body) …);
 *
 * Declarations hang on the router object; `buildOpenApi(app)` walks the mounted app (the same walk as
 * `listRoutes`), so mount prefixes come from app.ts and are never written twice. A mounted route
 * without a declaration is left out of the document and a declaration without a route is kept in it:
 * test/openapi.test.ts compares the document with `listRoutes(app)` and fails on either.
 */

/** Who may call an operation; test/openapi.test.ts checks it against the authorization matrix (test/helpers/route-table.ts). */
export type Access = 'public' | 'optional' | 'user' | 'self' | 'owner' | 'admin' | 'internal';

export type JsonSchema = Record<string, unknown>;

export interface ResponseDoc {
  description: string;
  /** A zod schema the server has for this body, or a short hand-written JSON Schema (see `shape`). */
  schema?: z.ZodType | JsonSchema;
  /** `application/json` unless said otherwise (e.g. `text/csv`). */
  contentType?: string;
}

export interface OperationDoc {
  summary: string;
  description?: string;
  auth: Access;
  /** Internal calls made for a user also forward that user's bearer token. */
  userToken?: boolean;
  /** The zod schemas handed to `parse()` for `req.params`, `req.query` and `req.body`. */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A multipart/form-data upload: the file field's name. */
  upload?: string;
  /**
   * Account calls answer failures (bad input included) as 200 `{status:false, msg}`: no automatic
   * 400 is listed for them.
   */
  failuresAs200?: boolean;
  /** Status -> description, or description and body. 400/401/403 are added from the inputs and `auth` when missing. */
  responses: Record<number, string | ResponseDoc>;
  /** Overrides the tag given to `apiDocs`. */
  tag?: string;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Declared extends OperationDoc {
  method: Method;
  /** Path inside the router, as given to `router[method]`. */
  path: string;
  tag: string;
}

/** Declarations per router (the Express `Router()` function, or `app.router` for routes on the app). */
const registry = new WeakMap<object, Declared[]>();

/** What `app.router` is for an app, the router itself otherwise. */
function ownerOf(target: object): object {
  const router = (target as { router?: unknown }).router;
  return router && typeof router === 'function' && typeof (target as { set?: unknown }).set === 'function' ? router : target;
}

/**
 * Declares the operations of `router` (or of an app's own routes) under `tag`. One call per route,
 * with the route's path exactly as given to the router.
 */
export function apiDocs(router: object, tag: string): Record<Method, (path: string, doc: OperationDoc) => void> {
  const owner = ownerOf(router);
  const declare = (method: Method) => (path: string, doc: OperationDoc) => {
    const list = registry.get(owner) ?? [];
    if (list.some((entry) => entry.method === method && entry.path === path)) throw new Error(`${method.toUpperCase()} ${path} is documented twice`);
    list.push({ tag, ...doc, method, path });
    registry.set(owner, list);
  };
  return { get: declare('get'), post: declare('post'), put: declare('put'), patch: declare('patch'), delete: declare('delete') };
}

// ---- hand-written response shapes (no zod schema exists for responses) -----------------------------

const str = { type: 'string' } as const;
const id = { type: 'string', pattern: '^[0-9a-f]{24}$' } as const;

/** Bodies the routes share, written from the services' DTOs. */
const componentSchemas: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    description: 'Every failure outside the account calls: a message for the user, naming the field at fault where there is one.',
    properties: {
      msg: str,
      message: { ...str, description: 'Same text as msg.' },
      field: { ...str, description: 'The input field at fault, e.g. `email`.' },
      status: { const: false, description: 'Comments, reviews and forums add it.' },
    },
    required: ['msg', 'message'],
  },
  AccountResult: {
    type: 'object',
    description: 'Account calls answer 200 either way: `status:true`, or `status:false` with `msg` (and `field`) saying what to fix.',
    properties: { status: { type: 'boolean' }, msg: str, field: str },
    required: ['status'],
  },
  User: {
    type: 'object',
    properties: {
      _id: id,
      username: str,
      email: { ...str, format: 'email' },
      avatarImage: { ...str, description: 'Base64 SVG markup, shown as data:image/svg+xml;base64,…; empty until set.' },
      isAvatarImageSet: { type: 'boolean' },
      role: { enum: ['user', 'admin'] },
    },
    required: ['_id', 'username', 'email', 'avatarImage', 'isAvatarImageSet', 'role'],
  },
  Event: {
    type: 'object',
    properties: {
      _id: id,
      title: str,
      description: str,
      date: { ...str, format: 'date-time' },
      startDate: { ...str, format: 'date-time', description: 'Same instant as date.' },
      location: str,
      image: { type: ['string', 'null'], description: 'Absolute URL or null.' },
      status: { enum: ['approved', 'pending'] },
      isPaid: { type: 'boolean' },
      ticketPrice: { type: 'integer', description: 'Whole shillings.' },
      capacity: { type: ['integer', 'null'] },
      registeredUsers: { type: 'array', items: id },
      user: { ...id, description: "The organiser's user id." },
      latitude: { type: ['number', 'null'] },
      longitude: { type: ['number', 'null'] },
      openedCount: { type: 'integer' },
      ticketsSold: { type: 'integer' },
      seatsLeft: { type: ['integer', 'null'] },
      createdAt: { ...str, format: 'date-time' },
    },
    required: ['_id', 'title', 'description', 'date', 'startDate', 'location', 'image', 'status', 'isPaid', 'ticketPrice', 'capacity', 'registeredUsers', 'user', 'latitude', 'longitude', 'openedCount'],
  },
};

export type ComponentName = 'Error' | 'AccountResult' | 'User' | 'Event';

/** Short hand-written response bodies: `shape.ref('Event')`, `shape.array(shape.ref('Event'))`, `shape.object({ msg: 'string' })`. */
export const shape = {
  ref: (name: ComponentName): JsonSchema => ({ $ref: `#/components/schemas/${name}` }),
  array: (items: JsonSchema): JsonSchema => ({ type: 'array', items }),
  /** Properties by JSON type name or schema; all of them required. */
  object: (properties: Record<string, string | JsonSchema>): JsonSchema => ({
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, typeof value === 'string' ? { type: value } : value])),
    required: Object.keys(properties),
  }),
};

// ---- generation ---------------------------------------------------------------------------------

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  'x-access': Access;
  security: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

/** Express `:id` -> OpenAPI `{id}`. */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const pathParamsOf = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);

/**
 * The input side of a zod schema (what a client sends: before transforms and defaults), as JSON
 * Schema 2020-12. Refinements and transforms cannot be expressed and are left out ('any').
 */
export function inputSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

const toJson = (schema: z.ZodType | JsonSchema): JsonSchema => (schema instanceof z.ZodType ? inputSchema(schema) : schema);

function propertiesOf(schema: z.ZodType): { properties: Record<string, JsonSchema>; required: string[] } {
  const json = inputSchema(schema);
  return { properties: (json.properties as Record<string, JsonSchema> | undefined) ?? {}, required: (json.required as string[] | undefined) ?? [] };
}

const accessText: Record<Access, string> = {
  public: 'Public: no token needed.',
  optional: 'Public; a bearer token, when sent, changes the answer.',
  user: 'Needs a bearer token (any signed-in user).',
  self: 'Needs a bearer token; only the user named in the path (or body) may call it, others get 403.',
  owner: 'Needs a bearer token; only the owner of the resource or an administrator may call it, others get 403.',
  admin: 'Needs a bearer token of an administrator; others get 403.',
  internal: 'Internal: only for Tukio services (the payment service), with the shared key in X-Internal-Key.',
};

function securityFor(doc: Declared): Array<Record<string, string[]>> {
  switch (doc.auth) {
    case 'public':
      return [];
    case 'optional':
      return [{}, { bearerAuth: [] }];
    case 'internal':
      return [doc.userToken ? { internalKey: [], bearerAuth: [] } : { internalKey: [] }];
    default:
      return [{ bearerAuth: [] }];
  }
}

function operationOf(doc: Declared, fullPath: string): Operation {
  const parameters: Parameter[] = [];
  const params = doc.params ? propertiesOf(doc.params).properties : {};
  // Every path parameter is declared; one the handler does not parse with zod is a plain string.
  for (const name of pathParamsOf(fullPath)) {
    parameters.push({ name, in: 'path', required: true, schema: params[name] ?? { type: 'string' } });
  }
  if (doc.query) {
    const query = propertiesOf(doc.query);
    for (const [name, schema] of Object.entries(query.properties)) {
      parameters.push({ name, in: 'query', required: query.required.includes(name), schema });
    }
  }

  let requestBody: Operation['requestBody'];
  if (doc.body) {
    const schema = inputSchema(doc.body);
    requestBody = { required: ((schema.required as string[] | undefined) ?? []).length > 0, content: { 'application/json': { schema } } };
  } else if (doc.upload) {
    const schema = {
      type: 'object',
      properties: { [doc.upload]: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file.' } },
      required: [doc.upload],
    };
    requestBody = { required: true, content: { 'multipart/form-data': { schema } } };
  }

  const responses: Operation['responses'] = {};
  const declared = Object.entries(doc.responses).map(([status, value]): [number, ResponseDoc] => [Number(status), typeof value === 'string' ? { description: value } : value]);
  const takesInput = Boolean(doc.params || doc.query || doc.body || doc.upload);
  const automatic: Array<[number, string]> = [];
  if (takesInput && !doc.failuresAs200) automatic.push([400, 'Invalid input: `msg` names the field and what to fix.']);
  if (doc.auth === 'internal') automatic.push([401, 'Missing or wrong X-Internal-Key.']);
  else if (doc.auth !== 'public' && doc.auth !== 'optional') automatic.push([401, 'No valid bearer token.']);
  if (doc.auth === 'self' || doc.auth === 'owner' || doc.auth === 'admin') automatic.push([403, accessText[doc.auth]]);
  const all = [
    ...declared,
    ...automatic.filter(([status]) => !declared.some(([given]) => given === status)).map(([status, description]): [number, ResponseDoc] => [status, { description }]),
  ];
  for (const [status, response] of all.sort(([a], [b]) => a - b)) {
    const schema = response.schema ? toJson(response.schema) : status >= 400 ? shape.ref('Error') : undefined;
    responses[String(status)] = {
      description: response.description,
      ...(schema ? { content: { [response.contentType ?? 'application/json']: { schema } } } : {}),
    };
  }

  const operation: Operation = {
    operationId: `${doc.method}${fullPath.replace(/^\/api/, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: doc.summary,
    description: [doc.description, accessText[doc.auth]].filter(Boolean).join('\n\n'),
    tags: [doc.tag],
    'x-access': doc.auth,
    security: securityFor(doc),
    responses,
  };
  if (parameters.length) operation.parameters = parameters;
  if (requestBody) operation.requestBody = requestBody;
  return operation;
}

function packageVersion(): string {
  try {
    // src/lib and dist/lib both sit two levels below server/package.json.
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * The OpenAPI document of every documented route the app mounts under /api. Declarations are read
 * from the routers the walk meets, so a declaration whose route was never registered still appears
 * (at its router's mount path) and the route check in test/openapi.test.ts reports it.
 */
export function buildOpenApi(app: Express): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  const add = (doc: Declared, fullPath: string) => {
    const key = toOpenApiPath(fullPath);
    paths[key] ??= {};
    paths[key][doc.method] = operationOf(doc, fullPath);
    if (!tags.includes(doc.tag)) tags.push(doc.tag);
  };
  // Each (router, mount path) pair is read once, in mount order, with all of its declarations.
  const read = new Map<object, Set<string>>();
  for (const layer of listRouteLayers(app)) {
    const bases = read.get(layer.owner) ?? new Set<string>();
    if (bases.has(layer.base)) continue;
    bases.add(layer.base);
    read.set(layer.owner, bases);
    for (const doc of registry.get(layer.owner) ?? []) {
      const fullPath = `${layer.base.replace(/\/+$/, '')}${doc.path === '/' ? '' : doc.path}` || '/';
      if (fullPath.startsWith('/api')) add(doc, fullPath);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tukio API',
      version: packageVersion(),
      description: [
        'The API server of Tukio: accounts, events, tickets, payment records, comments, reviews, forums and chat.',
        'Generated from the zod schemas that validate each request (request bodies, query strings and path parameters are the schemas the server parses with, input side).',
        'Authenticate with `Authorization: Bearer <token>` from POST /api/auth/login. Real-time chat runs over Socket.IO on this server. M-Pesa payments (stkPush, confirmPayment) are served by the separate payment service on its own port; its calls into this server are the Internal operations.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: componentSchemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from POST /api/auth/login.' },
        internalKey: { type: 'apiKey', in: 'header', name: 'X-Internal-Key', description: 'INTERNAL_API_KEY, shared with the payment service.' },
      },
    },
  };
}
