import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { requireSelf, requireUser } from '../../lib/auth.js';
import { apiDocs, shape } from '../../lib/openapi.js';
import { idParam, parse } from '../../lib/validate.js';
import { contactBody, isContactForm } from '../contact/contact.schemas.js';
import type { ContactService } from '../contact/contact.service.js';
import type { ChatService } from './chat.service.js';

export const sendBody = z.object({
  from: idParam('from'),
  to: idParam('to'),
  message: z.string({ error: 'Message cannot be empty.' }).max(10_000, 'Message is too long.'),
});

const contactIdParams = z.object({ contactId: idParam('contactId') });

const storedMessage = shape.object({ _id: 'string', from: 'string', to: 'string', message: 'string', createdAt: 'string' });

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
  const doc = apiDocs(router, 'Chat');

  doc.post('/getmsg', {
    summary: 'A conversation: the latest 50 messages, or the 50 before `before`',
    auth: 'self',
    description: '`from` must be the caller.',
    body: conversationBody,
    responses: {
      200: {
        description: 'Bare array `[{_id, fromSelf, message, createdAt}]`, oldest first.',
        schema: shape.array(shape.object({ _id: 'string', fromSelf: 'boolean', message: 'string', createdAt: 'string' })),
      },
    },
  });
  router.post('/getmsg', async (req, res) => {
    const body = parse(conversationBody, req.body);
    const user = requireSelf(req, body.from);
    res.json(await deps.chat.conversation(user.id, body.to, body.before ? new Date(body.before) : undefined));
  });

  doc.post('/addmsg', {
    summary: 'Send a chat message (the contact form is accepted here too)',
    auth: 'self',
    description: '`from` must be the caller. Same handler as POST /api/auth/sendMessage.',
    body: sendBody,
    responses: { 200: { description: 'The stored message.', schema: storedMessage }, 404: 'That user does not exist.' },
  });
  router.post('/addmsg', deps.sendMessage);

  doc.post('/read/:contactId', {
    summary: "Mark the messages from a contact as read (the caller's own receipts)",
    auth: 'user',
    params: contactIdParams,
    responses: { 200: { description: 'Marked.', schema: shape.object({ status: { const: true } }) } },
  });
  router.post('/read/:contactId', async (req, res) => {
    const user = requireUser(req);
    const { contactId } = parse(contactIdParams, req.params);
    await deps.chat.markRead(user.id, contactId);
    res.json({ status: true });
  });

  doc.get('/unread', {
    summary: 'Unread message counts per contact',
    auth: 'user',
    responses: { 200: { description: 'Unread counts by contact id.', schema: { type: 'object', additionalProperties: { type: 'integer' } } } },
  });
  router.get('/unread', async (req, res) => {
    const user = requireUser(req);
    res.json(await deps.chat.unreadCounts(user.id));
  });

  return router;
}
