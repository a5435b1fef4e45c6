import type { Express } from 'express';
import { ERROR_CODES } from '@tukio/shared/error-codes';
import { buildOpenApiDocument, packageVersion, type OpenApiDocument } from '@tukio/shared/node/openapi';
import { z } from 'zod';
import { listDeclaredRoutes, type Access, type DeclaredRoute, type ResponseSpec, type RouteSpec } from './route-declaration.js';

export { toOpenApiPath, type OpenApiDocument } from '@tukio/shared/node/openapi';

/**
 * OpenAPI 3.1 for the API server, rendered from the route declarations (route-declaration.ts) by
 * @tukio/shared's builder: the request schemas are the ones each route validates with, the responses
 * the zod schemas declared next to them. This file says what the server's accesses mean in the
 * document (text, security scheme, the 401/403 they answer) and what the server adds (uploads,
 * account calls answering 200, restricted accounts). Shared bodies carry `.meta({ id })` and become components.
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
  if (route.apiKey) return [{ apiKeyBearer: [] }, { apiKeyHeader: [] }];
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

/** The 400/401/403 every route of its kind can answer, added to the declared responses when missing. */
function completeResponses(route: DeclaredRoute, declared: Map<number, ResponseSpec>): void {
  const add = (status: number, description: string) => {
    if (!declared.has(status)) declared.set(status, { description });
  };
  if ((route.params || route.query || route.body || route.upload) && !route.failuresAs200) add(400, 'Invalid input: `msg` names the field and what to fix.');
  if (route.access === 'internal') add(401, 'Missing or wrong X-Internal-Key.');
  else if (route.apiKey) add(401, 'No valid API key.');
  else if (route.access !== 'public' && route.access !== 'optional') add(401, 'No valid bearer token.');
  if (route.access === 'self' || route.access === 'owner' || route.access === 'admin') add(403, accessText[route.access]);
  if (route.refuseRestricted) {
    const restricted = 'A suspended or banned account (`restricted: true`; the message says until when).';
    const known = declared.get(403);
    declared.set(403, known ? { ...known, description: `${known.description} Or: ${restricted}` } : { description: restricted });
  }
}

/** An upload's body: the one file field. */
function uploadBody(route: DeclaredRoute) {
  if (!route.upload) return undefined;
  return {
    required: true,
    content: { 'multipart/form-data': { schema: z.object({ [route.upload]: z.string().meta({ contentMediaType: 'application/octet-stream', description: 'The file.' }) }) } },
  };
}

/** The OpenAPI document of every declared route the app mounts under /api. */
export function buildOpenApi(app: Express): OpenApiDocument {
  return buildOpenApiDocument<RouteSpec>(listDeclaredRoutes(app), {
    include: (route) => route.fullPath.startsWith('/api'),
    describeAccess: (route) => accessText[route.access],
    securityOf: securityFor,
    completeResponses,
    requestBodyOf: uploadBody,
    errorSchema: errorResponse,
    info: {
      title: 'Tukio API',
      // src/lib and dist/lib both sit two levels below server/package.json.
      version: packageVersion(new URL('../../package.json', import.meta.url)),
      description: [
        'The API server of Tukio: accounts, events, tickets, payment records, comments, reviews, forums and chat.',
        'Generated from the route declarations: request bodies, query strings and path parameters are the zod schemas the server validates with (input side).',
        'Authenticate with `Authorization: Bearer <token>` from POST /api/auth/login. Real-time chat runs over Socket.IO on this server. M-Pesa payments (stkPush, confirmPayment) are served by the payment service, reached through this server under /pay; its calls into this server are the Internal operations.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'This server' }],
    components: {
      schemas: { Error: errorResponse },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from POST /api/auth/login.' },
        apiKeyBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'tk_live_…', description: "An organiser's API key (POST /api/api-keys), for /api/v1 only." },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The same API key in a header instead of Authorization.' },
        internalKey: { type: 'apiKey', in: 'header', name: 'X-Internal-Key', description: 'INTERNAL_API_KEY, shared with the payment service.' },
      },
    },
  });
}
