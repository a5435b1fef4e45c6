import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** Tickets are their holder's; a check-in scan is the scanning organiser's (their device), not the holder's. */
export const ticketsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'tickets', onErase: 'anonymise',
      about: 'Your tickets: event, code, type, price paid, check-in and whether voided (who scanned it is left out).',
      subject: { user_id: 'id' },
      otherUsers: { checked_in_by: 'withheld' },
      personal: {},
      othersPersonal: { checked_in_device: 'device' },
    },
    {
      table: 'checkin_scans', onErase: 'anonymise',
      about: 'Tickets you scanned at the door of your events, with the device name you gave.',
      subject: { scanned_by: 'id' },
      personal: { device: 'device' },
    },
    {
      table: 'ticket_date_checkins', onErase: 'anonymise',
      about: 'Tickets you admitted on one date of your event series.',
      subject: { checked_in_by: 'id' },
      personal: {},
    },
  ],
};
