import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiComponentsObject,
  type ZodOpenApiObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiRequestBodyObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import type { DeclaredRoute, ResponseSpec, RouteSpec } from './route-declaration.js';

/**
 * OpenAPI 3.1 from route declarations (route-declaration.ts), rendered by zod-openapi: the request
 * schemas are the ones each route validates with, the responses the zod schemas declared next to them.
 * Shared bodies carry `.meta({ id })` and become components. What an access means (its text, its
 * security scheme, the 401/403 it can answer) is the service's, given as `OpenApiRules`.
 */

export type OpenApiDocument = ReturnType<typeof createDocument>;

/** Express `:id` -> OpenAPI `{id}`. */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const pathParamsOf = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);

export interface OpenApiRules<S extends RouteSpec> {
  info: ZodOpenApiObject['info'];
  servers?: ZodOpenApiObject['servers'];
  /** The routes the document covers (all declared ones by default). */
  include?: (route: DeclaredRoute<S>) => boolean;
  /** Who may call it, in words: appended to the route's description. */
  describeAccess: (route: DeclaredRoute<S>) => string | undefined;
  /** The operation's `security` requirements. */
  securityOf: (route: DeclaredRoute<S>) => Array<Record<string, string[]>>;
  /** Adds to the declared responses what every route of its kind can answer (400 for bad input, 401/403 from `access`). */
  completeResponses: (route: DeclaredRoute<S>, responses: Map<number, ResponseSpec>) => void;
  /** A request body for a route without a `body` schema (e.g. an upload). */
  requestBodyOf?: (route: DeclaredRoute<S>) => ZodOpenApiRequestBodyObject | undefined;
  /** The body of a 4xx/5xx response that declares none. */
  errorSchema: z.ZodType;
  components: ZodOpenApiComponentsObject;
}

function responsesOf<S extends RouteSpec>(route: DeclaredRoute<S>, rules: OpenApiRules<S>): ZodOpenApiResponsesObject {
  const declared = new Map<number, ResponseSpec>(
    Object.entries(route.responses).map(([status, value]) => [Number(status), typeof value === 'string' ? { description: value } : value]),
  );
  rules.completeResponses(route, declared);
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, response] of [...declared].sort(([a], [b]) => a - b)) {
    const schema = response.schema ?? (status >= 400 ? rules.errorSchema : undefined);
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: response.description,
      ...(schema ? { content: { [response.contentType ?? 'application/json']: { schema } } } : {}),
    };
  }
  return responses;
}

function operationOf<S extends RouteSpec>(route: DeclaredRoute<S>, rules: OpenApiRules<S>): ZodOpenApiOperationObject {
  // Every path parameter is declared; one the route does not validate is a plain string.
  const declaredParams = route.params instanceof z.ZodObject ? (route.params.shape as Record<string, z.ZodType>) : {};
  const path = z.object(Object.fromEntries(pathParamsOf(route.fullPath).map((name) => [name, declaredParams[name] ?? z.string()])));
  const operation: ZodOpenApiOperationObject = {
    operationId: `${route.method}${route.fullPath.replace(/^\/api/, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: route.summary,
    description: [route.description, rules.describeAccess(route)].filter(Boolean).join('\n\n'),
    tags: [route.tag],
    security: rules.securityOf(route),
    requestParams: { path, ...(route.query instanceof z.ZodObject ? { query: route.query } : {}) },
    responses: responsesOf(route, rules),
    'x-access': route.access,
  };
  const requestBody: ZodOpenApiRequestBodyObject | undefined = route.body ? { content: { 'application/json': { schema: route.body } } } : rules.requestBodyOf?.(route);
  if (requestBody) operation.requestBody = requestBody;
  return operation;
}

/** The OpenAPI document of the given declared routes (`listDeclaredRoutes(app)`). */
export function buildOpenApiDocument<S extends RouteSpec>(routes: Array<DeclaredRoute<S>>, rules: OpenApiRules<S>): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  const tags: string[] = [];
  for (const route of routes) {
    if (rules.include && !rules.include(route)) continue;
    const key = toOpenApiPath(route.fullPath);
    paths[key] = { ...paths[key], [route.method]: operationOf(route, rules) };
    if (!tags.includes(route.tag)) tags.push(route.tag);
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: rules.info,
      ...(rules.servers ? { servers: rules.servers } : {}),
      tags: tags.map((name) => ({ name })),
      paths,
      components: rules.components,
    },
    // Refinements and transforms cannot be written as JSON Schema: the input side is documented without them.
    { allowEmptySchema: { custom: true, transform: true, pipe: true } as never },
  );
}

/** A service's version for `info.version`: its package.json's, given as a URL relative to the calling module (0.0.0 when unreadable). */
export function packageVersion(packageJson: URL): string {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** What GET …/openapi.json answers, as each service's docs route declares it. */
export const openApiJsonResponses = {
  200: { description: 'The document.', schema: z.object({ openapi: z.string(), info: z.object({}).loose(), paths: z.object({}).loose() }) },
};

/**
 * The handler of GET …/openapi.json: the document built on the first request (once every router is mounted)
 * and then served from memory.
 */
export function serveOpenApiJson(build: () => object) {
  let json: string | undefined;
  return ({ res }: { res: { setHeader(name: string, value: string): unknown; type(type: string): { send(body: string): unknown } } }) => {
    json ??= JSON.stringify(build());
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/json').send(json);
  };
}
