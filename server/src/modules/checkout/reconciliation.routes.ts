import { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import type { Reconciliation } from './reconciliation.js';

const finding = z.object({
  kind: z.enum(['recovered', 'unmatched', 'amount_differs', 'missing_at_mpesa']),
  transId: z.string(),
  mpesaAmount: z.int().nullable(),
  tukioAmount: z.int().nullable(),
});
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
      responses: { 200: { description: 'Bare array of runs `[{_id, windowFrom, windowTo, status, pulled, error, createdAt, finishedAt, findings:[{kind, transId, mpesaAmount, tukioAmount}]}]`.', schema: z.array(run) } },
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

  return router;
}
