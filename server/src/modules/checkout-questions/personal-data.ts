import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/**
 * The buyers' answers to checkout questions are theirs (docs/decisions/checkout-questions.md): exported with their
 * data, deleted with their account (an answer is no use to anyone once its buyer is gone; the order and its money
 * stay in checkout's tables).
 */
export const checkoutQuestionsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'checkout_answers',
      about: 'Your answers to the questions organisers asked when you bought tickets (a name on each ticket, a T-shirt size...).',
      subject: { user_id: 'id' },
      personal: { answer: 'answer' },
      onErase: 'delete',
    },
  ],
  notPersonal: { 'checkout_questions.label': 'the question the organiser asks (“Name on ticket”), not anyone’s answer' },
};
