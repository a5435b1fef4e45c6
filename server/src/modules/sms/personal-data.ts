import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** SMS are found by phone number; their text carries ticket links that work without signing in, never exported. */
export const smsPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'sms_messages', onErase: 'delete',
      about: 'SMS we sent to your phone numbers: purpose, status and when (not their text, which holds ticket links).',
      subject: { phone: 'phone' },
      personal: { phone: 'phone' },
      secret: ['message'],
    },
    {
      table: 'sms_opt_outs', onErase: 'delete',
      about: 'Your phone numbers that replied STOP: no promotional SMS goes to them (with the account gone, none is sent to them anyway).',
      subject: { phone: 'phone' },
      personal: { phone: 'phone' },
    },
  ],
  notPersonal: { 'sms_messages.provider_message_id': "Africa's Talking's id for the message", 'sms_opt_outs.sender': "Tukio's own sender ID" },
};
