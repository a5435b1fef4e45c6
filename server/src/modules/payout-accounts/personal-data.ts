import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** Payout destinations in the personal-data map: the organiser's own M-Pesa number, Paybill or Till, and the phone codes went to. */
export const payoutAccountsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'payout_accounts', onErase: 'anonymise',
      about: 'Where your event payouts go (M-Pesa number, Paybill and account, or Till), each change you made and the phone the code went to.',
      subject: { user_id: 'id' },
      personal: { phone: 'phone', code_phone: 'phone', account_reference: 'free-text' },
      secret: ['code_hash'],
    },
  ],
};
