import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The payouts' lines in the personal-data map: an organiser's payouts (with where they went) and settings; holds only name admins. */
export const payoutsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'payouts', onErase: 'anonymise',
      about: 'Payouts to you as an organiser: amount, where they went (your M-Pesa number, Paybill or Till), status and M-Pesa receipt.',
      subject: { organiser_id: 'id' },
      otherUsers: { retried_by: 'withheld' },
      personal: { destination: 'phone' },
    },
    {
      table: 'payout_organisers', onErase: 'anonymise',
      about: 'Whether an administrator trusts you with early payouts.',
      subject: { organiser_id: 'id' },
      otherUsers: { early_payouts_set_by: 'withheld' },
      personal: {},
    },
    {
      table: 'payout_holds', onErase: 'anonymise',
      about: "Administrators' holds on an event's payouts; they only name the admins, so none is exported.",
      subject: {},
      otherUsers: { held_by: 'withheld', released_by: 'withheld' },
      personal: {},
    },
  ],
};
