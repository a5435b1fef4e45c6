import { internalKeyCheck, routeDeclarations, type DeclaredRoute, type RouteSpec } from '@tukio/shared/node/route-declaration';
import type { z } from 'zod';
import { PaymentServiceError } from './errors.js';

/**
 * The payment service declares its routes as the API server does (@tukio/shared/node/route-declaration):
 * one declaration validates the input, authorizes the caller and documents the route for GET
 * /api/docs/openapi.json (openapi.ts). Its failures are PaymentServiceErrors, answered by errors.ts.
 *
 * Who may call:
 * - `public`: anyone (the section-7 adapter, the health check; the API server decides about the buyer);
 * - `internal`: the API server, with the shared key in `X-Internal-Key` (401 `internal_only` otherwise);
 * - `daraja`: M-Pesa's callbacks. The gate lets them through: the secret path segment is checked by the
 *   handler (it counts each refusal and answers in Daraja's own words), and `CALLBACK_ALLOWED_IPS` by the
 *   middleware in front of /api/mpesa.
 */
export type Access = 'public' | 'internal' | 'daraja';

/** What the payment service's declarations say beyond the shared ones. */
export interface PaymentRouteExtras {
  /**
   * A body documented but not validated by the declaration: the section-7 adapter forwards its body as it
   * came (the API server validates it, so the adapter refuses nothing the API server would take); Daraja's
   * callbacks check theirs in the handler, to refuse in Daraja's words and count each refusal.
   */
  documentedBody?: z.ZodType;
}

export type PaymentRouteSpec = RouteSpec<Access> & PaymentRouteExtras;

export type PaymentDeclaredRoute = DeclaredRoute<PaymentRouteSpec>;

/** `declareRoutes(router, tag, { internalKey })`, with the payment service's accesses. */
export function declareRoutes(router: object, tag: string, options: { internalKey?: string } = {}) {
  const internalKey = options.internalKey === undefined ? undefined : internalKeyCheck(options.internalKey);
  return routeDeclarations<Access, PaymentRouteExtras>({
    checkDeclaration: (spec, where) => {
      if (spec.access === 'internal' && !internalKey) throw new Error(`${where} is internal: declareRoutes needs the internal key`);
    },
    authorize: (spec, req) => {
      if (spec.access === 'internal' && !internalKey?.(req)) throw new PaymentServiceError(401, 'internal_only', 'This endpoint is for Tukio services only.');
    },
    invalidInput: (problem) =>
      new PaymentServiceError(400, 'validation_failed', problem.message, { ...(problem.field === undefined ? {} : { field: problem.field }), params: problem.params }),
  })(router, tag);
}
