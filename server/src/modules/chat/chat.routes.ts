import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { requireSelf, requireUser } from '../../lib/auth.js';
import { idParam, parse } from '../../lib/validate.js';
import { contactBody, isContactForm } from '../contact/contact.schemas.js';
import type { ContactService } from '../contact/contact.service.js';
import type { ChatService } from './chat.service.js';

const sendBody = z.object({
  from: idParam('from'),
  to: idParam('to'),
  message: z.string({ error: 'Message cannot be empty.' }).max(10_000, 'Message is too long.'),
});

const conversationBody = z.object({
  from: idParam('from'),
  to: idParam('to'),
  before: z.iso.datetime({ error: 'before must be an ISO date-time.' }).optional(),
});

/** One handler for both shapes the contract sends to the same paths. */
export function createSendMessageHandler(deps: { chat: ChatService; contact: ContactService; contactLimit: RequestHandler }): RequestHandler {
  return (req, res, next) => {
    if (isContactForm(req.body)) {
      deps.contactLimit(req, res, async () => {
        try {
          res.json(await deps.contact.submit(parse(contactBody, req.body)));
        } catch (error) {
          next(error);
        }
      });
      return;
    }
    const body = parse(sendBody, req.body);
    requireSelf(req, body.from);
    deps.chat.send(body.from, body.to, body.message).then((message) => res.json(message), next);
  };
}

export function createChatRouter(deps: { chat: ChatService; sendMessage: RequestHandler }) {
  const router = Router();

  router.post('/getmsg', async (req, res) => {
    const body = parse(conversationBody, req.body);
    const user = requireSelf(req, body.from);
    res.json(await deps.chat.conversation(user.id, body.to, body.before ? new Date(body.before) : undefined));
  });

  router.post('/addmsg', deps.sendMessage);

  router.post('/read/:contactId', async (req, res) => {
    const user = requireUser(req);
    const { contactId } = parse(z.object({ contactId: idParam('contactId') }), req.params);
    await deps.chat.markRead(user.id, contactId);
    res.json({ status: true });
  });

  router.get('/unread', async (req, res) => {
    const user = requireUser(req);
    res.json(await deps.chat.unreadCounts(user.id));
  });

  return router;
}
