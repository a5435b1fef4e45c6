import { Router } from 'express';
import { declareRoutes } from '../../lib/route-declaration.js';
import { answersBody, eventParams, guestLinkParams, orderParams, questionBody, questionParams, reorderBody } from './checkout-questions.schemas.js';
import type { CheckoutQuestionsService } from './checkout-questions.service.js';

const notFound = 'Event not found (or pending and not yours).';
const question = '`{_id, label, kind, options, required, per, ticketTypeId}`';

/** /api/events/:id/questions: the organiser's checkout questions (mounted under /api/events before the events router). */
export function createCheckoutQuestionsRouter(deps: { questions: CheckoutQuestionsService }) {
  const { questions } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Checkout questions');

  routes.get(
    '/:id/questions',
    {
      summary: "The event's checkout questions, in the order buyers answer them",
      access: 'optional',
      params: eventParams,
      responses: { 200: `Bare array of ${question}.`, 404: notFound },
    },
    ({ params, user }) => questions.list(params.id, user),
  );

  routes.post(
    '/:id/questions',
    {
      summary: 'Add a checkout question (organiser, co-organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      description: 'Kinds: `text`, `choice` (with `options`), `yes_no`, `phone` (Kenyan), `email`; asked once `per` `order` or `attendee`; of every ticket type, or of `ticketTypeId` only.',
      params: eventParams,
      body: questionBody,
      responses: { 201: `The question, ${question}.`, 400: 'Invalid question (field named).', 403: 'Not the organiser or an admin.', 404: notFound },
    },
    async ({ params, user, body, res }) => {
      res.status(201);
      return questions.create(params.id, user, body);
    },
  );

  routes.post(
    '/:id/questions/reorder',
    {
      summary: 'Put the checkout questions in a new order (organiser, co-organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      params: eventParams,
      body: reorderBody,
      responses: { 200: 'The questions in their new order.', 400: '`ids` does not name every question once.', 403: 'Not the organiser or an admin.', 404: notFound },
    },
    ({ params, user, body }) => questions.reorder(params.id, user, body.ids),
  );

  routes.put(
    '/:id/questions/:questionId',
    {
      summary: 'Change a checkout question (organiser, co-organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      params: questionParams,
      body: questionBody,
      responses: { 200: `The question, ${question}.`, 400: 'Invalid question (field named).', 403: 'Not the organiser or an admin.', 404: 'No such event or question.' },
    },
    ({ params, user, body }) => questions.update(params.id, params.questionId, user, body),
  );

  routes.delete(
    '/:id/questions/:questionId',
    {
      summary: 'Delete a checkout question and its answers (organiser, co-organiser or admin)',
      access: 'owner',
      team: { permission: 'manage', event: ({ params }) => params.id },
      params: questionParams,
      responses: { 200: '`{message}`.', 403: 'Not the organiser or an admin.', 404: 'No such event or question.' },
    },
    ({ params, user }) => questions.remove(params.id, params.questionId, user),
  );

  return router;
}

/** /api/me/orders/:orderId/answers: a buyer reads and changes their answers until the event starts. */
export function createOrderAnswersRouter(deps: { questions: CheckoutQuestionsService }) {
  const { questions } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Checkout questions');

  routes.get(
    '/orders/:orderId/answers',
    {
      summary: "An order's checkout questions and its buyer's answers (the buyer only)",
      access: 'user',
      params: orderParams,
      responses: {
        200: '`{orderId, eventId, editable, questions:[{…question, times}], answers:[{questionId, attendee, value}]}` (`times`: how often the question is asked of this order).',
        403: 'Not the buyer.',
        404: 'No such order.',
      },
    },
    ({ params, user }) => questions.orderAnswers(user, params.orderId),
  );

  routes.put(
    '/orders/:orderId/answers',
    {
      summary: "Change an order's answers (the buyer only, until the event starts)",
      access: 'user',
      description: 'The whole set: answers left out are cleared (refused for a required question).',
      params: orderParams,
      body: answersBody,
      responses: { 200: 'As GET.', 400: 'A missing required answer, a wrong kind or an unknown option (the question is named).', 403: 'Not the buyer.', 404: 'No such order.', 409: 'The event has started.' },
    },
    ({ params, user, body }) => questions.replaceOrderAnswers(user, params.orderId, body.answers),
  );

  return router;
}

/**
 * /api/guest-tickets/:token/answers: a guest buyer reads and changes their order's answers from the page their SMS
 * link opens, until the event starts, under the same rules as a member's (mounted beside the guest ticket page).
 */
export function createGuestOrderAnswersRouter(deps: { questions: CheckoutQuestionsService; orderOfGuestLink: (token: string) => Promise<string | undefined> }) {
  const { questions } = deps;
  const router = Router();
  const routes = declareRoutes(router, 'Checkout questions');
  const notFound = 'Unknown or forged link, or the order was claimed by an account (its answers are then under the profile).';

  routes.get(
    '/:token/answers',
    {
      summary: "A guest order's checkout questions and answers, for the holder of its SMS link",
      access: 'public',
      params: guestLinkParams,
      responses: { 200: 'As `GET /api/me/orders/{orderId}/answers`.', 404: notFound },
    },
    async ({ params }) => questions.guestOrderAnswers(await deps.orderOfGuestLink(params.token)),
  );

  routes.put(
    '/:token/answers',
    {
      summary: "Change a guest order's answers (the holder of its SMS link, until the event starts)",
      access: 'public',
      description: 'The whole set, checked as at checkout: answers left out are cleared (refused for a required question).',
      params: guestLinkParams,
      body: answersBody,
      responses: { 200: 'As GET.', 400: 'A missing required answer, a wrong kind or an unknown option (the question is named).', 404: notFound, 409: 'The event has started.' },
    },
    async ({ params, body }) => questions.replaceGuestOrderAnswers(await deps.orderOfGuestLink(params.token), body.answers),
  );

  return router;
}
