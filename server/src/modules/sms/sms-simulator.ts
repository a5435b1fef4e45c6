import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type RequestHandler } from 'express';
import { escapeHtml } from '../../lib/html.js';
import type { Logger } from '../../lib/logger.js';

/**
 * An offline stand-in for Africa's Talking's SMS API, speaking its protocol (POST /version1/messaging,
 * form-encoded, `apiKey` header; the documented JSON answer and statusCodes; delivery reports POSTed
 * form-encoded afterwards), so the offline app sends SMS exactly as it would for real. It keeps what each
 * phone received in memory and shows it at GET / (the simulator key opens it, like the M-Pesa simulator).
 *
 * Test numbers: +254700000403 is refused (403 InvalidPhoneNumber), +254700000406 is blacklisted (406
 * UserInBlacklist), +254700000500 meets a gateway error (500, worth retrying), +254700000408 is accepted
 * but never delivered (report AbsentSubscriber). Every other Kenyan number receives its messages.
 */

export const SMS_SIMULATOR_USERNAME = 'sandbox';
/** The simulator's own API key: harmless, it only ever talks to its own server. */
export const SMS_SIMULATOR_API_KEY = 'tukio-sms-simulator-key';

export interface SimulatedSms {
  messageId: string;
  to: string;
  from: string;
  message: string;
  receivedAt: string;
  status: 'Success' | 'Rejected' | 'AbsentSubscriber' | 'Submitted';
}

const REFUSED: Record<string, { statusCode: number; status: string }> = {
  '+254700000403': { statusCode: 403, status: 'InvalidPhoneNumber' },
  '+254700000406': { statusCode: 406, status: 'UserInBlacklist' },
  '+254700000500': { statusCode: 500, status: 'InternalServerError' },
};
const UNREACHABLE = '+254700000408';
/** Messages kept in memory; the oldest go first. */
const KEEP = 5000;

const sameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** http(s) links in a message, clickable on the page (everything else escaped). */
function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"]+)/g)
    .map((part, index) => (index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}

export function createSmsSimulator(options: {
  /** Opens the page and the JSON list (X-Simulator-Key header or ?key=). */
  key: string;
  /** Where delivery reports go (the URL Africa's Talking's dashboard would hold); a function, known once the server listens. */
  deliveryReportUrl: () => string;
  /** Where a STOP reply is notified (the dashboard's Bulk SMS Opt Out callback URL). */
  optOutUrl: () => string;
  /** Time from accepting a message to its delivery report. */
  deliveryDelayMs?: number;
  logger: Logger;
}) {
  const received: SimulatedSms[] = [];
  const delay = options.deliveryDelayMs ?? 500;

  const requireKey: RequestHandler = (req, res, next) => {
    const given = req.get('x-simulator-key') ?? (typeof req.query.key === 'string' ? req.query.key : '');
    if (given && sameSecret(given, options.key)) return next();
    res.status(401).json({ msg: 'The SMS simulator needs the simulator key (X-Simulator-Key header or ?key=, printed in the server log at start).', code: 'simulator_refused' });
  };

  function report(sms: SimulatedSms, status: SimulatedSms['status'], failureReason?: string) {
    const timer = setTimeout(() => {
      sms.status = status;
      const form = new URLSearchParams({ id: sms.messageId, status, phoneNumber: sms.to, networkCode: '99999', retryCount: '0' });
      if (failureReason) form.set('failureReason', failureReason);
      fetch(options.deliveryReportUrl(), { method: 'POST', body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, signal: AbortSignal.timeout(10_000) }).catch(
        (error: unknown) => options.logger.info(`sms simulator: delivery report for ${sms.messageId} not delivered (${(error as Error).message})`),
      );
    }, delay);
    timer.unref();
  }

  const router = Router();
  router.post('/version1/messaging', express.urlencoded({ extended: false, limit: '32kb' }), (req: Request, res) => {
    const apiKey = req.get('apikey') ?? '';
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!sameSecret(apiKey, SMS_SIMULATOR_API_KEY) || body.username !== SMS_SIMULATOR_USERNAME) {
      res.status(401).type('text/plain').send('The supplied authentication is invalid');
      return;
    }
    const message = typeof body.message === 'string' ? body.message : '';
    const numbers = typeof body.to === 'string' ? body.to.split(',').map((to) => to.trim()).filter(Boolean) : [];
    if (!message || numbers.length === 0) {
      res.status(400).json({ SMSMessageData: { Message: 'InvalidRequest', Recipients: [] } });
      return;
    }
    const from = typeof body.from === 'string' && body.from ? body.from : 'AFRICASTKNG';
    const recipients = numbers.map((to) => {
      const refused = REFUSED[to] ?? (/^\+254[17]\d{8}$/.test(to) ? undefined : { statusCode: 403, status: 'InvalidPhoneNumber' });
      if (refused) return { statusCode: refused.statusCode, number: to, status: refused.status, cost: '0', messageId: 'None' };
      const sms: SimulatedSms = { messageId: `ATXid_${randomBytes(16).toString('hex')}`, to, from, message, receivedAt: new Date().toISOString(), status: 'Submitted' };
      received.push(sms);
      if (received.length > KEEP) received.splice(0, received.length - KEEP);
      report(sms, to === UNREACHABLE ? 'AbsentSubscriber' : 'Success', to === UNREACHABLE ? 'UserIsInactive' : undefined);
      return { statusCode: 101, number: to, status: 'Success', cost: 'KES 0.8000', messageId: sms.messageId };
    });
    const sent = recipients.filter((recipient) => recipient.statusCode === 101).length;
    res.status(201).json({ SMSMessageData: { Message: `Sent to ${sent}/${recipients.length} Total Cost: KES ${(sent * 0.8).toFixed(4)}`, Recipients: recipients } });
  });

  /**
   * A phone replies STOP (form or JSON `phone`): notified to the opt-out URL as Africa's Talking does (form-encoded
   * senderId and phoneNumber). Answers once the server has it, with its status.
   */
  router.post('/stop', requireKey, express.urlencoded({ extended: false, limit: '4kb' }), express.json({ limit: '4kb' }), async (req: Request, res) => {
    const phone = String((req.body as Record<string, unknown> | undefined)?.phone ?? '').trim();
    if (!/^\+?\d{9,15}$/.test(phone)) {
      res.status(400).json({ msg: 'phone must be a phone number (+2547XXXXXXXX).', code: 'simulator_refused' });
      return;
    }
    const form = new URLSearchParams({ senderId: 'TUKIO', phoneNumber: phone.startsWith('+') ? phone : `+${phone}` });
    try {
      const answer = await fetch(options.optOutUrl(), { method: 'POST', body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, signal: AbortSignal.timeout(10_000) });
      if (req.is('application/json')) res.json({ notified: answer.ok, status: answer.status });
      else res.redirect(303, `./?key=${encodeURIComponent(options.key)}`);
    } catch (error) {
      options.logger.info(`sms simulator: STOP from a phone not notified (${(error as Error).message})`);
      res.status(502).json({ msg: 'The opt-out could not be delivered to the server.', code: 'simulator_refused' });
    }
  });

  /** What each phone received, newest first (`?phone=` for one): JSON for tests and tools. */
  router.get('/messages', requireKey, (req, res) => {
    const phone = typeof req.query.phone === 'string' ? req.query.phone.trim() : '';
    res.json(received.filter((sms) => !phone || sms.to === phone || sms.to === `+${phone.replace(/^\+/, '')}`).reverse());
  });

  /** The page: every phone that received something, its messages newest first, links clickable. */
  router.get('/', requireKey, (_req, res) => {
    const byPhone = new Map<string, SimulatedSms[]>();
    for (const sms of [...received].reverse()) byPhone.set(sms.to, [...(byPhone.get(sms.to) ?? []), sms]);
    const sections = [...byPhone]
      .map(
        ([phone, messages]) =>
          `<section><h2>${escapeHtml(phone)}</h2><ol>${messages
            .map((sms) => `<li><p>${linkify(sms.message)}</p><small>${escapeHtml(sms.receivedAt.slice(0, 19).replace('T', ' '))} UTC · from ${escapeHtml(sms.from)} · ${escapeHtml(sms.status)}</small></li>`)
            .join('')}</ol></section>`,
      )
      .join('');
    res
      .type('html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>SMS simulator · Tukio</title>` +
          `<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:1rem auto;padding:0 1rem;color:#1a1a1a}h2{font-size:1.1rem;margin-top:1.5rem}` +
          `ol{list-style:none;padding:0}li{background:#f1f5f1;border-radius:.75rem;padding:.5rem .75rem;margin:.5rem 0}li p{margin:0 0 .25rem;white-space:pre-wrap;overflow-wrap:anywhere}small{color:#555}</style></head>` +
          `<body><h1>SMS simulator</h1><p>Messages Tukio sent through the offline stand-in for Africa's Talking, by phone, newest first. Reload to see new ones.</p>` +
          `<form method="post" action="stop?key=${escapeHtml(encodeURIComponent(options.key))}"><label>Reply STOP from <input name="phone" type="tel" placeholder="+254712345678" required></label> <button>Send STOP</button></form>` +
          (sections || '<p>No messages yet.</p>') +

          `</body></html>`,
      );
  });

  return { router, received: () => [...received] };
}
