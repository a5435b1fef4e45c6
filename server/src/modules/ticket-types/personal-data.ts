import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** Ticket types hold nothing about a person. */
export const ticketTypesPersonalData: PersonalDataDeclaration = {
  tables: [],
  notPersonal: { 'ticket_types.name': 'the kind of ticket (VIP, Early Bird)' },
};
