import { createHash, timingSafeEqual } from 'node:crypto';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { listRouteLayers } from './express-routes.js';
import { parseInput, type InvalidInputError } from './input-validation.js';

/**
 * One declaration per route, for every Tukio service. A route is written once, with its method and
 * path, and that one object
 * - **authorizes**: `access` decides who passes before anything else runs; what each access means is
 *   the service's (`RouteRules.authorize`: the API server's sign-in and roles, the internal key);
 * - **validates**: `params`, `query` and `body` are parsed with zod (a 400 naming the field, as the
 *   service's `invalidInput` makes it), and the handler receives the parsed, typed values;
 * - **documents**: `buildOpenApiDocument` (openapi.ts next to this file) renders the same schemas,
 *   access and responses as OpenAPI;
 * - **feeds the tests**: `listDeclaredRoutes(app)` gives every mounted declaration with its full path
 *   (the API server's authorization matrix, each service's check that every route is documented).
 *
 * A service either uses `routeDeclarations(rules)` as is (the payment service) or builds its own typed
 * surface on `declareRoute` (the API server, whose handlers also get the signed-in caller).
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  /** The body's zod schema (responses are documented, not validated). */
  schema?: z.ZodType;
  /** `application/json` unless said otherwise (e.g. `text/csv`). */
  contentType?: string;
}

export type Schema = z.ZodType | undefined;
export type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export interface RouteInput<P extends Schema, Q extends Schema, B extends Schema> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
}

export interface RouteContext<P extends Schema, Q extends Schema, B extends Schema> extends RouteInput<P, Q, B> {
  req: Request;
  res: Response;
}

/** What every declaration says; a service's own declarations may say more (its rules read it). */
export interface RouteSpec<A extends string = string, P extends Schema = Schema, Q extends Schema = Schema, B extends Schema = Schema> {
  summary: string;
  description?: string;
  /** Overrides the group's tag. */
  tag?: string;
  access: A;
  params?: P;
  query?: Q;
  body?: B;
  /** Middleware run after authorization and before validation: body parsers, rate limits, upload parsers. */
  use?: RequestHandler[];
  /** Status -> description, or description and body. The service's OpenAPI rules add the answers every route of its kind can give. */
  responses: Record<number, string | ResponseSpec>;
}

/** A declaration as kept for the document and the tests. */
export type Declared<S extends RouteSpec = RouteSpec> = S & {
  method: Method;
  /** Path inside the router, as given to the router. */
  path: string;
  tag: string;
};

export type DeclaredRoute<S extends RouteSpec = RouteSpec> = Declared<S> & {
  /** Mount path and route path joined, e.g. `/api/events/:id`. */
  fullPath: string;
};

/** What a service decides about its declarations. */
export interface RouteRules<S extends RouteSpec> {
  /** Refuses, by throwing, a declaration the service could not enforce; `where` names it for the message. */
  checkDeclaration?: (spec: S, where: string) => void;
  /** The gate every declared route runs first: throws the service's 401/403 for a caller who may not call it. */
  authorize: (spec: S, req: Request) => void;
  /** Handlers between `use` and the input parsing (markers for the service's error handler). */
  beforeInput?: (spec: S) => RequestHandler[];
  /** The service's 400 for input that does not parse. */
  invalidInput: InvalidInputError;
}

/** Declarations per router (the Express `Router()` function, or `app.router` for routes on the app). */
const registry = new WeakMap<object, Declared[]>();

/** What `app.router` is for an app, the router itself otherwise. */
function ownerOf(target: object): object {
  const router = (target as { router?: unknown }).router;
  return router && typeof router === 'function' && typeof (target as { set?: unknown }).set === 'function' ? router : target;
}

/** The status a handler's returned value is sent with: the first 2xx of `responses` (200 when none). */
export function successStatus(spec: RouteSpec): number {
  const statuses = Object.keys(spec.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
  return statuses.length ? Math.min(...statuses) : 200;
}

/** Anything routes can be added to: an Express Router or app. */
type Routable = Record<Method, (path: string, ...handlers: RequestHandler[]) => unknown>;

/**
 * Declares one route on `router` (a Router or an app) under `tag`: registers it for the document and
 * mounts gate, `use`, the rules' `beforeInput`, then the parse and the handler. A value the handler
 * returns is sent as JSON with the first 2xx status of `responses`; a handler that answers itself (a
 * file, a redirect, a forwarded answer) returns nothing.
 */
export function declareRoute<S extends RouteSpec>(
  router: object,
  tag: string,
  method: Method,
  path: string,
  spec: S,
  handler: (context: RouteContext<Schema, Schema, Schema>) => unknown,
  rules: RouteRules<S>,
): void {
  const where = `${method.toUpperCase()} ${path} (${tag})`;
  rules.checkDeclaration?.(spec, where);
  const owner = ownerOf(router);
  const list = registry.get(owner) ?? [];
  if (list.some((entry) => entry.method === method && entry.path === path)) throw new Error(`${where} is declared twice`);
  list.push({ tag, ...spec, method, path });
  registry.set(owner, list);

  const gate: RequestHandler = (req, _res, next) => {
    rules.authorize(spec, req);
    next();
  };
  const run: RequestHandler = async (req, res) => {
    const input = {
      params: spec.params ? parseInput(spec.params, req.params, rules.invalidInput) : {},
      query: spec.query ? parseInput(spec.query, req.query, rules.invalidInput) : {},
      body: spec.body ? parseInput(spec.body, req.body, rules.invalidInput) : {},
    } as RouteInput<Schema, Schema, Schema>;
    const result = await handler({ ...input, req, res });
    if (result !== undefined && !res.headersSent) res.status(successStatus(spec)).json(result);
  };
  (router as Routable)[method](path, gate, ...(spec.use ?? []), ...(rules.beforeInput?.(spec) ?? []), run);
}

type Register<A extends string, X extends object> = <P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined>(
  path: string,
  spec: RouteSpec<A, P, Q, B> & X,
  handler: (context: RouteContext<P, Q, B>) => unknown,
) => void;

/**
 * A service's `declareRoutes(router, tag)`: `routes.post(path, spec, handler)` and the other methods, with
 * the service's rules. `X` is what the service's declarations say beyond `RouteSpec` (its rules read it).
 */
export function routeDeclarations<A extends string, X extends object = object>(rules: RouteRules<RouteSpec<A> & X>) {
  return (router: object, tag: string): Record<Method, Register<A, X>> => {
    const declare =
      (method: Method): Register<A, X> =>
      (path, spec, handler) =>
        declareRoute(router, tag, method, path, spec as RouteSpec<A> & X, handler as (context: RouteContext<Schema, Schema, Schema>) => unknown, rules);
    return { get: declare('get'), post: declare('post'), put: declare('put'), patch: declare('patch'), delete: declare('delete') };
  };
}

/**
 * Every declared route the app mounts, with its full path, in mount order. Declarations are read from
 * the routers the walk meets (each router once per mount path).
 */
export function listDeclaredRoutes<S extends RouteSpec = RouteSpec>(app: Express): DeclaredRoute<S>[] {
  const out: DeclaredRoute<S>[] = [];
  const read = new Map<object, Set<string>>();
  for (const layer of listRouteLayers(app)) {
    const bases = read.get(layer.owner) ?? new Set<string>();
    if (bases.has(layer.base)) continue;
    bases.add(layer.base);
    read.set(layer.owner, bases);
    for (const declared of registry.get(layer.owner) ?? []) {
      out.push({ ...(declared as Declared<S>), fullPath: `${layer.base.replace(/\/+$/, '')}${declared.path === '/' ? '' : declared.path}` || '/' });
    }
  }
  return out;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a request carries the services' shared key in `X-Internal-Key`. Both sides are hashed, so the
 * comparison takes the same time whatever the guess.
 */
export function internalKeyCheck(internalKey: string): (req: Request) => boolean {
  const expected = digest(internalKey);
  return (req) => {
    const given = req.get('x-internal-key');
    return !!given && timingSafeEqual(digest(given), expected);
  };
}
