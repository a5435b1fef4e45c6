import express, { Router } from 'express';
import { z } from 'zod';
import { declareRoutes } from '../../lib/route-declaration.js';
import type { SmsService } from './sms.service.js';

const reportParams = z.object({ secret: z.string().min(1).max(200) });
/** Africa's Talking's delivery report fields (form-encoded); the rest (networkCode, retryCount) is not needed. */
const reportBody = z.object({
  id: z.string({ error: 'id is required.' }).min(1).max(200),
  status: z.string({ error: 'status is required.' }).min(1).max(60),
  phoneNumber: z.string().max(40).optional(),
  failureReason: z.string().max(120).optional(),
});

/** Africa's Talking's bulk SMS opt-out notification (form-encoded): who replied STOP, to which sender ID. */
const optOutBody = z.object({
  phoneNumber: z.string({ error: 'phoneNumber is required.' }).min(1).max(40),
  senderId: z.string().max(60).optional(),
});

/** /api/sms — Africa's Talking's delivery reports and opt-outs, at the URLs set in its dashboard (the path carries the secret). */
export function createSmsRouter(deps: { sms: SmsService }) {
  const router = Router();
  const routes = declareRoutes(router, 'SMS');
  routes.post(
    '/opt-outs/:secret',
    {
      summary: "Africa's Talking bulk SMS opt-out: a number replied STOP",
      access: 'public',
      description:
        "Set `<PUBLIC_URL>/api/sms/opt-outs/<SMS_CALLBACK_SECRET>` as the Bulk SMS Opt Out callback URL in the Africa's Talking dashboard. Form-encoded " +
        '`phoneNumber` and `senderId`. The number gets no promotional SMS again; tickets, codes and reminders still reach it.',
      params: reportParams,
      body: optOutBody,
      use: [express.urlencoded({ extended: false, limit: '8kb' })],
      responses: { 200: { description: '`{received: true}`.', schema: z.object({ received: z.literal(true) }) }, 404: 'Wrong secret.' },
    },
    ({ params, body }) => deps.sms.optOut(params.secret, body),
  );
  routes.post(
    '/delivery-reports/:secret',
    {
      summary: "Africa's Talking delivery report for an SMS Tukio sent",
      access: 'public',
      description:
        'Set `<PUBLIC_URL>/api/sms/delivery-reports/<SMS_CALLBACK_SECRET>` as the delivery-report URL in the Africa\'s Talking dashboard. Form-encoded ' +
        '`id` (the messageId of the send), `status` (Success; Rejected, Failed, AbsentSubscriber, Expired; interim Sent, Submitted, Buffered), `failureReason`. ' +
        'Final statuses mark the message delivered or undelivered; a report for an unknown message changes nothing.',
      params: reportParams,
      body: reportBody,
      use: [express.urlencoded({ extended: false, limit: '8kb' })],
      responses: { 200: { description: '`{received: true}`.', schema: z.object({ received: z.literal(true) }) }, 404: 'Wrong secret.' },
    },
    ({ params, body }) => deps.sms.deliveryReport(params.secret, body),
  );
  return router;
}
