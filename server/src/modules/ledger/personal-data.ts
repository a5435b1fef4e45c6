import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The ledger's lines in the personal-data map: what is owed to an organiser is about them; an admin's entry only names the admin. */
export const ledgerPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'ledger_transactions', onErase: 'anonymise',
      about: 'Money movements; only the admin who recorded a manual one is named, so none is exported.',
      subject: {},
      otherUsers: { created_by: 'withheld' },
      personal: {},
    },
    { table: 'ledger_entries', onErase: 'anonymise', about: 'Ledger lines of money held for you as an organiser.', subject: { organiser_id: 'id' }, personal: {} },
  ],
};
