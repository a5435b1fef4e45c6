import { createHmac } from 'node:crypto';
import express, { Router } from 'express';
import { z } from 'zod';
import {
  C2B_ACCEPT,
  C2B_REJECTIONS,
  c2bResultCodeSchema,
  darajaC2bCallbackBody,
  paybillCheckoutId,
  type C2bConfirmationRequest,
  type C2bValidateResponse,
  type DarajaC2bCallbackBody,
} from '@tukio/shared/internal-c2b';
import type { ApiServerClient } from '../api-server-client.js';
import type { Logger } from '../logger.js';
import type { ProviderJournal } from '../provider-journal.js';
import type { OutboxIdentity, ResultOutbox } from '../result-outbox.js';
import { declareRoutes } from '../route-declaration.js';
import { darajaAccepted, darajaAnswer, darajaRefusals, refused, secretPathCheck } from './callback.routes.js';

/** The Paybill callbacks' secret path segment: derived from CALLBACK_SECRET, so it is as unguessable and differs from the STK one. */
export const paybillSecret = (callbackSecret: string) => createHmac('sha256', callbackSecret).update('paybill callbacks').digest('hex').slice(0, 32);

/** Paybill confirmations in the outbox: one per TransID (M-Pesa's receipt), whatever else differs in a repeat. */
export const paybillConfirmations: OutboxIdentity<C2bConfirmationRequest> = {
  key: (confirmation) => confirmation.transId,
  describe: (confirmation) => `${confirmation.transId} (${confirmation.amount} to account ${confirmation.billRefNumber})`,
};

/** M-Pesa waits "usually < 8 seconds" for a validation answer: ours comes sooner, a rejection when the API server is slow. */
const VALIDATION_DEADLINE_MS = 5000;

const validationAnswer = z.object({ ResultCode: c2bResultCodeSchema, ResultDesc: z.string() }).meta({ id: 'C2bValidationAnswer' });

/** A confirmation as the API server takes it (whole shillings; Daraja writes "5.00"). */
export const confirmationOf = (body: DarajaC2bCallbackBody): C2bConfirmationRequest => ({
  transId: body.TransID,
  billRefNumber: body.BillRefNumber,
  amount: body.TransAmount,
  msisdn: body.MSISDN,
  shortCode: body.BusinessShortCode,
  ...(body.TransTime ? { transTime: body.TransTime } : {}),
});

/**
 * POST /hooks/paybill/:secret/{validation,confirmation} — Daraja's C2B callbacks for Paybill payments
 * (docs/decisions/paybill.md), registered at start. Validation asks the API server (one call) whether the account
 * number is an open order's code and the amount its price, and answers Daraja's accept or rejection code.
 * A confirmation is written to the Paybill outbox (flushed to disk) before it is acknowledged, once per TransID,
 * and delivered to the API server's settle path from there, retried until acknowledged.
 */
export function createPaybillCallbackRouter(deps: {
  api: ApiServerClient;
  outbox: ResultOutbox<C2bConfirmationRequest>;
  shortcode: string;
  secret: string;
  logger: Logger;
  journal?: ProviderJournal | undefined;
}) {
  const router = Router();
  const secretValid = secretPathCheck(deps.secret);
  const routes = declareRoutes(router, 'M-Pesa callbacks');

  /** The secret path (404 otherwise, as if there were no route) and a readable Daraja C2B body (400). */
  const read = (params: Record<string, unknown>, body: unknown, label: string) => {
    if (!secretValid(params.secret)) {
      deps.logger.info(`Paybill ${label} with a wrong secret path refused`);
      throw refused(404, 'Not found');
    }
    const parsed = darajaC2bCallbackBody.safeParse(body);
    if (!parsed.success) throw refused(400, `Malformed ${label}`);
    return parsed.data;
  };

  routes.post(
    '/:secret/validation',
    {
      summary: "Daraja's C2B validation: may this Paybill payment go ahead?",
      description: 'Accepts (`ResultCode "0"`) a payment of exactly an open order’s amount to its order code; `C2B00012` an unknown account number, `C2B00013` a wrong amount, `C2B00015` another shortcode, `C2B00016` when Tukio cannot tell now.',
      access: 'daraja',
      use: [express.json({ limit: '16kb' })],
      documentedBody: darajaC2bCallbackBody,
      responses: { 200: darajaAnswer('The answer M-Pesa acts on (its code picks the payer’s SMS).', validationAnswer), 400: darajaAnswer('Not a C2B callback.'), ...darajaRefusals },
    },
    async ({ req, res }) => {
      const body = read(req.params, req.body, 'validation');
      const answer = (resultCode: C2bValidateResponse['resultCode'] | 'C2B00015', resultDesc: string) => res.json({ ResultCode: resultCode, ResultDesc: resultDesc });
      if (body.BusinessShortCode !== deps.shortcode) return answer('C2B00015', 'Rejected');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), VALIDATION_DEADLINE_MS);
      });
      const asked = deps.api.c2bValidate({ billRefNumber: body.BillRefNumber, amount: body.TransAmount }).catch((error: unknown) => {
        deps.logger.error(`Paybill validation of ${body.TransID} could not ask the API server`, error);
        return undefined;
      });
      const verdict = await Promise.race([asked, late]).finally(() => clearTimeout(timer));
      // Unsure is a rejection: the payer's money stays with them, and they can pay again in a moment.
      if (!verdict) return answer(C2B_REJECTIONS.other, 'Rejected');
      return answer(verdict.resultCode, verdict.resultCode === C2B_ACCEPT ? 'Accepted' : 'Rejected');
    },
  );

  routes.post(
    '/:secret/confirmation',
    {
      summary: "Daraja's C2B confirmation: a Paybill payment completed",
      description: 'Written to disk before it is acknowledged, once per TransID, then delivered to the API server (retried until acknowledged), which settles it as its order’s payment.',
      access: 'daraja',
      use: [express.json({ limit: '16kb' })],
      documentedBody: darajaC2bCallbackBody,
      responses: { 200: darajaAnswer('Acknowledged (`ResultCode` 0).', darajaAccepted), 400: darajaAnswer('Not a C2B callback.'), ...darajaRefusals },
    },
    ({ req, res }) => {
      const body = read(req.params, req.body, 'confirmation');
      const confirmation = confirmationOf(body);
      const added = deps.outbox.add(confirmation);
      // M-Pesa's word that the money came (the audit's provider side with real Daraja), once per TransID.
      if (added) deps.journal?.payment({ receipt: confirmation.transId, amount: confirmation.amount, phone: confirmation.msisdn, checkoutRequestId: paybillCheckoutId(confirmation.transId) });
      res.json({ ResultCode: 0, ResultDesc: 'Success' });
    },
  );

  return router;
}
