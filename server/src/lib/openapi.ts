import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { ERROR_CODES } from '@tukio/shared/error-codes';
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { listDeclaredRoutes, type Access, type DeclaredRoute, type ResponseSpec } from './route-declaration.js';

/**
 * OpenAPI 3.1 for the API server, rendered by zod-openapi from the route declarations
 * (route-declaration.ts): the request schemas are the ones each route validates with, the responses
 * the zod schemas declared next to them. Shared bodies carry `.meta({ id })` and become components.
 *
 * test/openapi.test.ts compares the document with every mounted route and fails on a route that was
 * mounted without a declaration.
 */

/** Every failure outside the account calls. */
export const errorResponse = z
  .object({
    msg: z.string(),
    message: z.string().meta({ description: 'Same text as msg.' }),
    code: z.enum(ERROR_CODES).meta({
      description: 'What went wrong, machine-readable and stable (e.g. `event_not_found`, `sold_out`, `validation_failed`): the client shows the message in the user\'s language by it.',
    }),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .meta({
        description:
          'The variable parts of the message, e.g. `{seatsLeft: 3}`. For `validation_failed`: `field`, `kind` (required, too_long, too_short, invalid_email, not_one_of, …) and its limit (`min`/`max`).',
      }),
    field: z.string().optional().meta({ description: 'The input field at fault, e.g. `email`.' }),
    requestId: z.string().optional().meta({ description: 'On 5xx answers: quote it to support, it names the log lines of the request.' }),
    status: z.literal(false).optional().meta({ description: 'Comments, reviews and forums add it.' }),
  })
  .meta({ id: 'Error', description: 'A failure: a message for the user and its code, naming the field at fault where there is one.' });

/** The account calls answer 200 either way. */
export const accountResult = z
  .object({
    status: z.boolean(),
    msg: z.string().optional(),
    code: z.enum(ERROR_CODES).optional().meta({ description: 'With `status:false`: what went wrong, machine-readable (as on every error).' }),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    field: z.string().optional(),
  })
  .meta({
    id: 'AccountResult',
    description: 'Account calls answer 200 either way: `status:true`, or `status:false` with `msg`, `code` (and `field`) saying what to fix.',
  });

export type OpenApiDocument = ReturnType<typeof createDocument>;

/** Express `:id` -> OpenAPI `{id}`. */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const pathParamsOf = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);

const accessText: Record<Access, string> = {
  public: 'Public: no token needed.',
  optional: 'Public; a bearer token, when sent, changes the answer.',
  user: 'Needs a bearer token (any signed-in user).',
  self: 'Needs a bearer token; only the user named in the path (or body) may call it, others get 403.',
  owner: 'Needs a bearer token; only the owner of the resource or an administrator may call it, others get 403.',
  admin: 'Needs a bearer token of an administrator; others get 403.',
  internal: 'Internal: only for Tukio services (the payment service), with the shared key in X-Internal-Key.',
};

function securityFor(route: DeclaredRoute): Array<Record<string, string[]>> {
  switch (route.access) {
    case 'public':
      return [];
    case 'optional':
      return [{}, { bearerAuth: [] }];
    case 'internal':
      return [route.userToken ? { internalKey: [], bearerAuth: [] } : { internalKey: [] }];
    default:
      return [{ bearerAuth: [] }];
  }
}

/** The declared responses plus the 400/401/403 every route of its kind can answer. */
function responsesOf(route: DeclaredRoute): ZodOpenApiResponsesObject {
  const declared = new Map<number, ResponseSpec>(
    Object.entries(route.responses).map(([status, value]) => [Number(status), typeof value === 'string' ? { description: value } : value]),
  );
  const add = (status: number, description: string) => {
    if (!declared.has(status)) declared.set(status, { description });
  };
  if ((route.params || route.query || route.body || route.upload) && !route.failuresAs200) add(400, 'Invalid input: `msg` names the field and what to fix.');
  if (route.access === 'internal') add(401, 'Missing or wrong X-Internal-Key.');
  else if (route.access !== 'public' && route.access !== 'optional') add(401, 'No valid bearer token.');
  if (route.access === 'self' || route.access === 'owner' || route.access === 'admin') add(403, accessText[route.access]);
  if (route.refuseRestricted) {
    const restricted = 'A suspended or banned account (`restricted: true`; the message says until when).';
    const known = declared.get(403);
    declared.set(403, known ? { ...known, description: `${known.description} Or: ${restricted}` } : { description: restricted });
  }

  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, response] of [...declared].sort(([a], [b]) => a - b)) {
    const schema = response.schema ?? (status >= 400 ? errorResponse : undefined);
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: response.description,
      ...(schema ? { content: { [response.contentType ?? 'application/json']: { schema } } } : {}),
    };
  }
  return responses;
}

function operationOf(route: DeclaredRoute): ZodOpenApiOperationObject {
  // Every path parameter is declared; one the route does not validate is a plain string.
  const declaredParams = route.params instanceof z.ZodObject ? (route.params.shape as Record<string, z.ZodType>) : {};
  const path = z.object(Object.fromEntries(pathParamsOf(route.fullPath).map((name) => [name, declaredParams[name] ?? z.string()])));
  const operation: ZodOpenApiOperationObject = {
    operationId: `${route.method}${route.fullPath.replace(/^\/api/, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: route.summary,
    description: [route.description, accessText[route.access]].filter(Boolean).join('\n\n'),
    tags: [route.tag],
    security: securityFor(route),
    requestParams: { path, ...(route.query instanceof z.ZodObject ? { query: route.query } : {}) },
    responses: responsesOf(route),
    'x-access': route.access,
  };
  if (route.body) operation.requestBody = { content: { 'application/json': { schema: route.body } } };
  else if (route.upload) {
    operation.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: z.object({ [route.upload]: z.string().meta({ contentMediaType: 'application/octet-stream', description: 'The file.' }) }) } },
    };
  }
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

/** The OpenAPI document of every declared route the app mounts under /api. */
export function buildOpenApi(app: Express): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  const tags: string[] = [];
  for (const route of listDeclaredRoutes(app)) {
    if (!route.fullPath.startsWith('/api')) continue;
    const key = toOpenApiPath(route.fullPath);
    paths[key] = { ...paths[key], [route.method]: operationOf(route) };
    if (!tags.includes(route.tag)) tags.push(route.tag);
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Tukio API',
        version: packageVersion(),
        description: [
          'The API server of Tukio: accounts, events, tickets, payment records, comments, reviews, forums and chat.',
          'Generated from the route declarations: request bodies, query strings and path parameters are the zod schemas the server validates with (input side).',
          'Authenticate with `Authorization: Bearer <token>` from POST /api/auth/login. Real-time chat runs over Socket.IO on this server. M-Pesa payments (stkPush, confirmPayment) are served by the payment service, reached through this server under /pay; its calls into this server are the Internal operations.',
        ].join('\n\n'),
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: tags.map((name) => ({ name })),
      paths,
      components: {
        schemas: { Error: errorResponse },
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from POST /api/auth/login.' },
          internalKey: { type: 'apiKey', in: 'header', name: 'X-Internal-Key', description: 'INTERNAL_API_KEY, shared with the payment service.' },
        },
      },
    },
    // Refinements and transforms cannot be written as JSON Schema: the input side is documented without them.
    { allowEmptySchema: { custom: true, transform: true, pipe: true } as never },
  );
}
