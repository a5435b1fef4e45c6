import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** Teams in the personal-data map: invitations (the email one went to) and memberships, of the organiser and of the helper. */
export const teamsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'team_invitations',
      onErase: 'delete',
      about: 'Invitations to help with an organiser’s events, those you sent and those sent to you (the email address when it named no account).',
      subject: { organiser_id: 'id', invitee_id: 'id', invitee_email: 'email' },
      personal: { invitee_email: 'email' },
    },
    {
      table: 'team_members',
      onErase: 'delete',
      about: 'The teams you are on (organiser, role, event) and the people on yours.',
      subject: { organiser_id: 'id', user_id: 'id' },
      personal: {},
    },
  ],
};
