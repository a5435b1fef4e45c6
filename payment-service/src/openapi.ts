import { ERROR_CODES } from '@tukio/shared/error-codes';
import { buildOpenApiDocument, packageVersion, type OpenApiDocument } from '@tukio/shared/node/openapi';
import { listDeclaredRoutes } from '@tukio/shared/node/route-declaration';
import type { Express } from 'express';
import { z } from 'zod';
import type { Access, PaymentDeclaredRoute, PaymentRouteSpec } from './route-declaration.js';

/**
 * OpenAPI 3.1 for the payment service, from its route declarations (route-declaration.ts) by the same
 * builder as the API server's document: what the API server asks of M-Pesa (/internal), the section-7
 * adapter (/api/stkPush, /api/confirmPayment), Daraja's callbacks and the health check.
 */

/** A failure, as errors.ts answers it (Daraja's callbacks answer in Daraja's words: their routes say so). */
const errorResponse = z
  .object({
    msg: z.string(),
    message: z.string().meta({ description: 'Same text as msg.' }),
    code: z.enum(ERROR_CODES).meta({ description: 'What went wrong, machine-readable and stable (e.g. `validation_failed`, `internal_only`).' }),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional().meta({ description: 'The variable parts of the message; for `validation_failed`: `field` and `kind`.' }),
    field: z.string().optional().meta({ description: 'The input field at fault.' }),
    requestId: z.string().optional().meta({ description: 'On 5xx answers: the id the log lines of the request carry.' }),
  })
  .meta({ id: 'Error', description: 'A failure: a message and its code, naming the field at fault where there is one.' });

const accessText: Record<Access, string> = {
  public: 'Public: no key needed.',
  internal: 'Internal: only for the API server, with the shared key in X-Internal-Key.',
  daraja: "M-Pesa (Daraja) only: the secret path segment, and the sender's address when CALLBACK_ALLOWED_IPS is set. Answered in Daraja's words: `{ResultCode, ResultDesc}`.",
};

function completeResponses(route: PaymentDeclaredRoute, declared: Map<number, { description: string }>): void {
  const add = (status: number, description: string) => {
    if (!declared.has(status)) declared.set(status, { description });
  };
  if (route.params || route.query || route.body) add(400, 'Invalid input: `msg` names the field and what to fix.');
  if (route.access === 'internal') add(401, 'Missing or wrong X-Internal-Key.');
}

/** The payment service's OpenAPI document: every declared route the app mounts. */
export function buildPaymentOpenApi(app: Express): OpenApiDocument {
  return buildOpenApiDocument<PaymentRouteSpec>(listDeclaredRoutes<PaymentRouteSpec>(app), {
    describeAccess: (route) => accessText[route.access],
    securityOf: (route) => (route.access === 'internal' ? [{ internalKey: [] }] : []),
    completeResponses,
    requestBodyOf: (route) => (route.documentedBody ? { content: { 'application/json': { schema: route.documentedBody } } } : undefined),
    errorSchema: errorResponse,
    info: {
      title: 'Tukio payment service',
      // src/ and dist/ both sit one level below payment-service/package.json.
      version: packageVersion(new URL('../package.json', import.meta.url)),
      description: [
        'The M-Pesa (Daraja) adapter of Tukio: it sends the prompts the API server asks for, takes Daraja\'s results and hands them to the API server, and serves the original contract\'s /api/stkPush and /api/confirmPayment by forwarding them to the API server\'s checkout (/pay).',
        'Generated from the route declarations: request bodies and path parameters are the zod schemas the service validates with; a forwarded body is documented as the API server takes it and validated there.',
      ].join('\n\n'),
    },
    servers: [{ url: '/', description: 'This service' }],
    components: {
      schemas: { Error: errorResponse },
      securitySchemes: {
        internalKey: { type: 'apiKey', in: 'header', name: 'X-Internal-Key', description: 'INTERNAL_API_KEY, shared with the API server.' },
      },
    },
  });
}
