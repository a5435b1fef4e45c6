import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { declareRoutes, type RouteSpec } from '../../lib/route-declaration.js';
import { timePageQuery } from '../../lib/time-cursor.js';
import { idParam, parse } from '../../lib/validate.js';
import { contactBody, isContactForm, type ContactService } from '../contact/index.js';
import { blockList, blockStatus, contact, contactPage, conversation, conversationPage, marked, storedMessage, unreadCounts } from './chat.responses.js';
import type { ChatService } from './chat.service.js';

const sendBody = z.object({
  from: idParam('from'),
  to: idParam('to'),
  message: z.string({ error: 'Message cannot be empty.' }).max(10_000, 'Message is too long.'),
});

const contactIdParams = z.object({ contactId: idParam('contactId') });
const blockParams = z.object({ userId: idParam('userId') });

const conversationBody = z.object({
  from: idParam('from'),
  to: idParam('to'),
  before: z.iso.datetime({ error: 'before must be an ISO date-time.' }).optional(),
});

/** Messages and contacts per page for our own client. */
const MESSAGES_PAGE_SIZE = 30;
const CONTACTS_PAGE_SIZE = 30;

type Routes = ReturnType<typeof declareRoutes>;

/**
 * Sending a chat message over HTTP, on the two paths the contract uses (POST /api/auth/sendMessage and
 * POST /api/messages/addmsg): one piece of code for both, mounted by each router.
 */
export function createSendMessage(deps: { chat: ChatService; contact: ContactService; contactLimit: RequestHandler }) {
  /**
   * The contact form shares the send paths and needs no token, so it is router-level middleware that
   * runs BEFORE the chat route's gate (which refuses a visitor with 401); any other body goes on to
   * the declared chat route.
   */
  const contactForm: RequestHandler = (req, res, next) => {
    if (!isContactForm(req.body)) return next();
    deps.contactLimit(req, res, async () => {
      try {
        res.json(await deps.contact.submit(parse(contactBody, req.body)));
      } catch (error) {
        next(error);
      }
    });
  };
  return {
    /**
     * The contact form, then the chat send, on `path` of the router `routes` declares. Any signed-in
     * user may send; `from` is required, so the `self` check (when sent, the caller) always applies.
     */
    mount(router: Router, routes: Routes, path: string, doc: Pick<RouteSpec, 'summary' | 'description' | 'responses'>) {
      router.post(path, contactForm);
      routes.post(path, { ...doc, access: 'user', refuseRestricted: true, self: ({ body }) => body.from, body: sendBody }, ({ body }) =>
        deps.chat.send(body.from, body.to, body.message),
      );
    },
  };
}

export type SendMessage = ReturnType<typeof createSendMessage>;

export function createChatRouter(deps: { chat: ChatService; sendMessage: SendMessage }) {
  const router = Router();
  const routes = declareRoutes(router, 'Chat');

  routes.post(
    '/getmsg',
    {
      summary: 'A conversation: the latest 50 messages, or the 50 before `before`',
      access: 'self',
      self: ({ body }) => body.from,
      description: '`from` must be the caller.',
      body: conversationBody,
      responses: { 200: { description: 'Bare array `[{_id, fromSelf, message, createdAt}]`, oldest first.', schema: conversation } },
    },
    ({ body, user }) => deps.chat.conversation(user.id, body.to, body.before ? new Date(body.before) : undefined),
  );

  routes.get(
    '/conversation/:contactId',
    {
      summary: "A page of the caller's conversation with a contact, newest first",
      access: 'user',
      description: "Keyset pages: pass the answer's `nextCursor` as `cursor` for the next (older) page. The client shows the items bottom-up.",
      params: contactIdParams,
      query: z.object(timePageQuery(MESSAGES_PAGE_SIZE)),
      responses: { 200: { description: '`{items:[{_id, fromSelf, message, createdAt, hidden}], total, nextCursor}`.', schema: conversationPage } },
    },
    ({ params, query, user }) => deps.chat.conversationPage(user.id, params.contactId, query),
  );

  routes.get(
    '/contacts',
    {
      summary: 'A page of the people the caller has exchanged messages with, most recent conversation first',
      access: 'user',
      description: "Keyset pages: pass the answer's `nextCursor` as `cursor` for the next page. Someone who blocked the caller is not listed. To find someone new, search by username (GET /api/auth/users/search).",
      query: z.object(timePageQuery(CONTACTS_PAGE_SIZE)),
      responses: { 200: { description: '`{items:[{_id, username, avatarImage}], total, nextCursor}`.', schema: contactPage } },
    },
    ({ query, user }) => deps.chat.contactPage(user.id, query),
  );

  routes.get(
    '/contacts/:contactId',
    {
      summary: 'One person to write to, as a contact card',
      access: 'user',
      description: 'For a conversation opened by its link with someone not on the loaded pages of contacts. 404 for no such account, someone the caller has never exchanged a message with, or one that blocked the caller.',
      params: contactIdParams,
      responses: { 200: { description: '`{_id, username, avatarImage}`.', schema: contact }, 404: 'No such user to write to.' },
    },
    ({ params, user }) => deps.chat.contact(user.id, params.contactId),
  );

  deps.sendMessage.mount(router, routes, '/addmsg', {
    summary: 'Send a chat message (the contact form is accepted here too)',
    description: '`from` must be the caller. Same handler as POST /api/auth/sendMessage.',
    responses: { 200: { description: 'The stored message.', schema: storedMessage }, 403: '`from` is not the caller.', 404: 'That user does not exist.' },
  });

  routes.post(
    '/read/:contactId',
    {
      summary: "Mark the messages from a contact as read (the caller's own receipts)",
      access: 'user',
      params: contactIdParams,
      responses: { 200: { description: 'Marked.', schema: marked } },
    },
    async ({ params, user }) => {
      await deps.chat.markRead(user.id, params.contactId);
      return { status: true };
    },
  );

  routes.get(
    '/unread',
    { summary: 'Unread message counts per contact', access: 'user', description: 'For the 1,000 senders who wrote last (the contact list shows the latest conversations first).', responses: { 200: { description: 'Unread counts by contact id.', schema: unreadCounts } } },
    ({ user }) => deps.chat.unreadCounts(user.id),
  );

  routes.get(
    '/blocks',
    { summary: 'Users the caller has blocked', access: 'user', responses: { 200: { description: '`{blocked:[{_id, username, blockedAt}]}`, newest first.', schema: blockList } } },
    async ({ user }) => ({ blocked: await deps.chat.blocks(user.id) }),
  );

  routes.put(
    '/blocks/:userId',
    {
      summary: 'Block a user in chat',
      description: 'Neither side can message the other while the block stands; the blocked user no longer sees the caller in contacts. Blocking twice is harmless.',
      access: 'user',
      params: blockParams,
      responses: { 200: { description: 'Blocked.', schema: blockStatus }, 400: 'Blocking yourself.', 404: 'That user does not exist.' },
    },
    async ({ params, user }) => {
      await deps.chat.block(user.id, params.userId);
      return { status: true, blocked: true };
    },
  );

  routes.delete(
    '/blocks/:userId',
    {
      summary: 'Unblock a user',
      access: 'user',
      params: blockParams,
      responses: { 200: { description: 'Unblocked (also when there was no block).', schema: blockStatus } },
    },
    async ({ params, user }) => {
      await deps.chat.unblock(user.id, params.userId);
      return { status: true, blocked: false };
    },
  );

  return router;
}
