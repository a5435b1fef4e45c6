import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The checkout module's tables in the personal-data map: orders, M-Pesa payments and refunds name their buyer. */
export const checkoutPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'orders', onErase: 'anonymise',
      about: 'Your orders: event, quantity, amount, status, the phone that paid and a guest checkout email.',
      subject: { user_id: 'id' },
      personal: { phone: 'phone', guest_email: 'email' },
    },
    {
      table: 'payments', onErase: 'anonymise',
      about: 'Your M-Pesa payments: amount, phone, status and receipt number.',
      subject: { user_id: 'id' },
      personal: { phone: 'phone' },
    },
    {
      table: 'refunds', onErase: 'anonymise',
      about: 'Refunds owed or paid to you: amount, phone, reason, status and receipt.',
      subject: { user_id: 'id' },
      personal: { phone: 'phone' },
    },
    {
      table: 'unmatched_payments', onErase: 'anonymise',
      about: 'Paybill payments whose account number matched no order, until an administrator places or refunds them: amount, the paying number as M-Pesa gave it, the account number typed.',
      subject: { msisdn: 'phone' },
      personal: { msisdn: 'phone', bill_ref_number: 'free-text' },
      otherUsers: { resolved_by: 'withheld' },
    },
    {
      table: 'reconciliation_runs', onErase: 'anonymise',
      about: "Daily checks of M-Pesa's list of payments against Tukio's; they only name the admin who asked for one, so none is exported.",
      subject: {},
      otherUsers: { requested_by: 'withheld' },
      personal: {},
    },
    {
      table: 'reconciliation_findings', onErase: 'anonymise',
      about: 'What a check found (M-Pesa receipt and amounts), and the review of an admin who looked into it; only that admin is named, so none is exported.',
      subject: {},
      otherUsers: { reviewed_by: 'withheld' },
      personal: {},
      // The reviewing admin's note may name a payer it was about: free text, never exported.
      othersPersonal: { review_note: 'free-text' },
    },
  ],
};
