import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import { idParam } from '../../lib/validate.js';
import type { Reconciliation } from './reconciliation.js';

const finding = z
  .object({
    _id: z.string(),
    kind: z.enum(['recovered', 'unmatched', 'amount_differs', 'missing_at_mpesa']),
    transId: z.string(),
    mpesaAmount: z.int().nullable(),
    tukioAmount: z.int().nullable(),
    /** An administrator's "Mark reviewed": when, who (null once their account is gone), what they found. */
    review: z.object({ at: z.string(), by: z.string().nullable(), note: z.string() }).nullable(),
  })
  .meta({ id: 'ReconciliationFinding' });
const findingParams = z.object({ id: idParam('Finding id') });
const reviewBody = z.object({ note: z.string().trim().min(3, 'Say what you found in at least 3 characters.').max(1000) });
const run = z
  .object({
    _id: z.string(),
    windowFrom: z.string(),
    windowTo: z.string(),
    status: z.enum(['running', 'done', 'failed']),
    pulled: z.int(),
    error: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    findings: z.array(finding),
  })
  .meta({ id: 'ReconciliationRun' });

/** /api/admin/reconciliation — Paybill reconciliation with M-Pesa's Pull Transactions (docs/decisions/reconciliation.md). */
export function createAdminReconciliationRouter(deps: { reconciliation: Reconciliation }) {
  const router = Router();
  const routes = declareRoutes(router, 'Payments');

  routes.get(
    '/',
    {
      summary: "The latest reconciliations with M-Pesa's list of Paybill payments, and what each found, newest first",
      access: 'admin',
      responses: { 200: { description: 'Bare array of runs `[{_id, windowFrom, windowTo, status, pulled, error, createdAt, finishedAt, findings:[{_id, kind, transId, mpesaAmount, tukioAmount, review}]}]`; `review` is `{at, by, note}` or null.', schema: z.array(run) } },
    },
    () => deps.reconciliation.list(),
  );

  routes.post(
    '/run',
    {
      summary: 'Reconcile now: ask M-Pesa for the window’s Paybill payments, settle those Tukio never heard of, report the rest',
      access: 'admin',
      responses: { 200: { description: 'The run (`status` failed with `error` when M-Pesa could not be asked).', schema: run } },
    },
    ({ user }) => deps.reconciliation.run(user.id),
  );

  routes.post(
    '/findings/:id/review',
    {
      summary: 'Mark an amount that differs or a receipt M-Pesa does not list as reviewed, with what was found (kept with the finding)',
      access: 'admin',
      params: findingParams,
      body: reviewBody,
      responses: {
        200: { description: 'The finding with its `review: {at, by, note}`.', schema: finding },
        404: 'No such finding.',
        409: 'Already reviewed, or a kind that needs no review (recovered, unmatched).',
      },
    },
    ({ params, body, user }) => deps.reconciliation.review(params.id, body.note, user),
  );

  return router;
}
