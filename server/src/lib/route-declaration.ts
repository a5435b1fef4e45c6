import {
  declareRoute,
  internalKeyCheck,
  listDeclaredRoutes as listDeclared,
  type Method,
  type ResponseSpec,
  type RouteContext as CoreContext,
  type RouteInput,
  type RouteRules,
  type RouteSpec as CoreSpec,
  type Schema,
} from '@tukio/shared/node/route-declaration';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { AuthUser } from '../modules/auth/index.js';
import { AppError, type ErrorCode } from './app-error.js';
import { loginRequired, requireAdmin, requireSelf, requireSelfIfPresent, restrictionError } from './auth.js';
import { invalidInput } from './validate.js';
import { roleAllows, type TeamPermission } from './team-access.js';

export type { Method, ResponseSpec, RouteInput };

/**
 * One declaration per route. A route is written once, as
 *
 *     const routes = declareRoutes(router, 'Events');
 *     routes.put('/admin/approve/:id', {
 *       summary: 'Approve (publish) an event',
 *       access: 'admin',
 *       params: eventIdParams,
 *       responses: { 200: { description: 'The event.', schema: eventResponse }, 404: 'Event not found.' },
 *     }, ({ params }) => events.setStatus(params.id, 'approved'));
 *
 * and that one object
 * - **authorizes**: `access` decides who passes before anything else runs (401 without a token, 403 for
 *   the wrong role, the internal key for service calls), and `self` names the input that must be the
 *   caller's own id;
 * - **validates**: `params`, `query` and `body` are parsed with zod (400 naming the field), and the
 *   handler receives the parsed, typed values;
 * - **documents**: `buildOpenApi` (openapi.ts) renders the same schemas, access and responses as
 *   OpenAPI with zod-openapi;
 * - **feeds the authorization matrix**: the security tests read `listDeclaredRoutes(app)` for the
 *   expected access of every mounted route.
 *
 * Ownership of a stored resource (an event, a comment) is known only once the row is loaded, so
 * `access: 'owner'` routes pass signed-in callers here and the service decides with `requireOwner`.
 *
 * The mechanism (registry, parsing, the route walk, the OpenAPI builder) is @tukio/shared's, which the
 * payment service declares its routes with too; this file supplies the API server's access rules (who
 * is signed in, roles, `self`, restricted accounts, the internal key) and hands handlers the caller.
 */

/** Who may call an operation. */
export type Access = 'public' | 'optional' | 'user' | 'self' | 'owner' | 'admin' | 'internal';

/** Accesses that need a signed-in caller: the handler's `user` is always set. */
type SignedIn = 'user' | 'self' | 'owner' | 'admin';

/** The caller as the handler sees it: always set when the access needs one (or an internal call forwards a token). */
type CallerOf<A extends Access, T> = A extends SignedIn ? AuthUser : T extends true ? AuthUser : AuthUser | undefined;

export interface RouteContext<A extends Access, P extends Schema, Q extends Schema, B extends Schema, T = undefined> extends CoreContext<P, Q, B> {
  user: CallerOf<A, T>;
}

export interface RouteSpec<A extends Access = Access, P extends Schema = Schema, Q extends Schema = Schema, B extends Schema = Schema, T extends boolean | undefined = boolean | undefined>
  extends CoreSpec<A, P, Q, B> {
  /** The 401 answer (code and message) when a signed-in caller is needed and none came (a default otherwise). */
  login?: { code: ErrorCode; message: string };
  /**
   * The account id in the input that must be the caller's own. With `access: 'self'` it is required
   * (an administrator passes too when `allowAdmin`); on `user` and `owner` routes it is an optional
   * field that, when sent, must still be the caller's.
   */
  self?: (input: RouteInput<P, Q, B>) => unknown;
  allowAdmin?: boolean;
  /** Internal calls made for a user also forward that user's bearer token (required). */
  userToken?: T;
  /** A multipart/form-data upload: the file field's name (the parser comes in `use`). */
  upload?: string;
  /**
   * Account calls answer failures (bad input included) as 200 `{status:false, msg}`: no automatic 400
   * is documented, and the request is marked (`answersFailuresAs200`) for the router's error handler.
   */
  failuresAs200?: boolean;
  /**
   * A write a suspended or banned account may not make (posting, chatting, buying, publishing): such a
   * caller gets 403 with the reason right after the access gate (docs/decisions/moderation.md).
   */
  refuseRestricted?: boolean;
  /** The caller is an organiser's API key (api-keys' /api/v1 router sets `req.user` from it), not a session. */
  apiKey?: boolean;
  /**
   * An organiser-scoped route (access 'owner') the organiser's team may use too (docs/decisions/teams.md):
   * `event` names the input that is the event's id, `permission` what the route does to it. A team member
   * whose role allows it acts as the organiser for this event; one whose role does not gets 403 here;
   * anyone else is left to the service's ownership check. An organiser-wide route (the organiser's payouts)
   * names `organiser` instead: the organiser's id, granted only to a member for all of that organiser's events.
   */
  team?:
    | { permission: TeamPermission; event: (input: RouteInput<P, Q, B>) => unknown; organiser?: undefined }
    | { permission: TeamPermission; organiser: (input: RouteInput<P, Q, B>) => unknown; event?: undefined };
}

/**
 * A route's handler: gets the parsed input and the caller. A value it returns is sent as JSON with the
 * first 2xx status of `responses`; a handler that answers itself (a file, a redirect) returns nothing.
 */
export type RouteHandler<A extends Access, P extends Schema, Q extends Schema, B extends Schema, T = undefined> = (
  context: RouteContext<A, P, Q, B, T>,
) => unknown;

/** A declaration as kept for the document and the tests. */
export interface Declared extends RouteSpec {
  method: Method;
  /** Path inside the router, as given to the router. */
  path: string;
  tag: string;
}

export interface DeclaredRoute extends Declared {
  /** Mount path and route path joined, e.g. `/api/events/:id`. */
  fullPath: string;
}

/** The gate every declared route runs first: who may call it at all. */
function authorize(spec: RouteSpec, req: Request, internalKey: ((req: Request) => boolean) | undefined): void {
  const signedIn = () => {
    if (!req.user) throw loginRequired(req, spec.login?.code, spec.login?.message);
  };
  switch (spec.access) {
    case 'public':
    case 'optional':
      return;
    case 'admin':
      signedIn();
      requireAdmin(req);
      return;
    case 'internal':
      // Internal calls carry the shared key in `X-Internal-Key` (compared in constant time).
      if (!internalKey?.(req)) throw new AppError(401, 'internal_only', 'This endpoint is for Tukio services only.');
      if (spec.userToken) signedIn();
      return;
    default:
      signedIn();
  }
}

/** `refuseRestricted`: a suspended or banned caller is stopped here, whatever the route would do. */
function refuseRestrictedCaller(spec: RouteSpec, req: Request): void {
  if (!spec.refuseRestricted) return;
  const refusal = restrictionError(req.user);
  if (refusal) throw refusal;
}

/** The id check of `self`, once the input is parsed. */
function checkSelf(spec: RouteSpec, req: Request, input: RouteInput<Schema, Schema, Schema>) {
  if (!spec.self) return;
  const claimed = spec.self(input);
  if (spec.access === 'self') requireSelf(req, claimed, { allowAdmin: spec.allowAdmin });
  else requireSelfIfPresent(req, claimed);
}

/**
 * `team`: the event's team member acts as its organiser when the role allows the route's permission
 * (the ids come from the parsed input and the membership from the database, never from the client's word).
 */
async function teamCaller(team: NonNullable<RouteSpec['team']>, req: Request, user: AuthUser, input: RouteInput<Schema, Schema, Schema>): Promise<AuthUser> {
  let access;
  if (team.organiser) {
    const organiserId = team.organiser(input);
    if (typeof organiserId !== 'string' || !req.teamAccessForOrganiser) return user;
    access = await req.teamAccessForOrganiser(user, organiserId, team.permission);
  } else {
    const eventId = team.event(input);
    if (typeof eventId !== 'string' || !req.teamAccess) return user;
    access = await req.teamAccess(user, eventId, team.permission);
  }
  if (access.kind === 'granted') return { ...user, actingFor: access.grant } as AuthUser;
  if (access.kind === 'refused') {
    throw AppError.forbidden('team_role_refused', `Your role on this team (${access.role.replace('_', ' ')}) does not allow that.`, { params: { role: access.role } });
  }
  return user;
}

// roleAllows is re-exported for the matrix, which derives each role's row from the same table.
export { roleAllows };

const FAILURES_AS_200 = Symbol('failuresAs200');

/** Whether the route that failed declared `failuresAs200` (the marker is set once the gate and `use` have passed). */
export const answersFailuresAs200 = (res: Response) => (res.locals as Record<symbol, unknown>)[FAILURES_AS_200] === true;

const markFailuresAs200: RequestHandler = (_req, res, next) => {
  (res.locals as Record<symbol, unknown>)[FAILURES_AS_200] = true;
  next();
};

type Register = <A extends Access, P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined, T extends boolean | undefined = undefined>(
  path: string,
  spec: RouteSpec<A, P, Q, B, T>,
  handler: RouteHandler<A, P, Q, B, T>,
) => void;

/**
 * Declares the routes of `router` (or of an app's own routes) under `tag`. `internalKey` is the shared
 * key of the `internal` routes (required when the group has any).
 */
export function declareRoutes(router: object, tag: string, options: { internalKey?: string } = {}): Record<Method, Register> {
  const internalKey = options.internalKey === undefined ? undefined : internalKeyCheck(options.internalKey);
  const rules: RouteRules<RouteSpec> = {
    checkDeclaration: (spec, where) => {
      if (spec.access === 'internal' && !internalKey) throw new Error(`${where} is internal: declareRoutes needs the internal key`);
      if (spec.access === 'self' && !spec.self) throw new Error(`${where} has access 'self' but does not say which input is the caller's id`);
      if (spec.self && !['self', 'user', 'owner'].includes(spec.access)) throw new Error(`${where}: 'self' applies to access 'self', 'user' or 'owner'`);
      if (spec.team && spec.access !== 'owner') throw new Error(`${where}: 'team' applies to access 'owner'`);
    },
    authorize: (spec, req) => {
      authorize(spec, req, internalKey);
      refuseRestrictedCaller(spec, req);
    },
    beforeInput: (spec) => (spec.failuresAs200 ? [markFailuresAs200] : []),
    invalidInput,
  };
  const declare =
    (method: Method): Register =>
    (path, spec, handler) => {
      const declared = spec as RouteSpec;
      declareRoute(router, tag, method, path, declared, async (context) => {
        // The id check of `self` needs the parsed input; the caller is the handler's only on routes that have one.
        checkSelf(declared, context.req, context);
        let user = (declared.access === 'internal' && !declared.userToken ? undefined : context.req.user) as AuthUser;
        if (declared.team && user) user = await teamCaller(declared.team, context.req, user, context);
        return (handler as RouteHandler<Access, Schema, Schema, Schema, boolean | undefined>)({ ...context, user } as RouteContext<Access, Schema, Schema, Schema, boolean | undefined>);
      }, rules);
    };
  return { get: declare('get'), post: declare('post'), put: declare('put'), patch: declare('patch'), delete: declare('delete') };
}

/**
 * Every declared route the app mounts, with its full path, in mount order. Declarations are read from
 * the routers the walk meets (each router once per mount path).
 */
export function listDeclaredRoutes(app: Express): DeclaredRoute[] {
  return listDeclared<RouteSpec>(app);
}
