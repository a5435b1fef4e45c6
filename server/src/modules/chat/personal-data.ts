import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/**
 * The chat module's tables in the personal-data map. A message is its sender's: the export holds the messages
 * you sent with the other side's user id (the conversation), not what others wrote to you.
 */
export const chatPersonalData: PersonalDataDeclaration = {
  tables: [
    {
      table: 'chat_messages', onErase: 'anonymise', keptOnErase: {text: "the other side of the conversation keeps what was said to them; the sender shows as \"Deleted user\""},
      about: 'Chat messages you sent; recipient_id names the conversation (messages others sent you are theirs).',
      subject: { sender_id: 'id' },
      otherUsers: { recipient_id: 'exported', hidden_by: 'withheld' },
      personal: { text: 'free-text' },
    },
    {
      table: 'chat_blocks', onErase: 'delete',
      about: 'People you blocked in chat, by user id.',
      subject: { blocker_id: 'id' },
      otherUsers: { blocked_id: 'exported' },
      personal: {},
    },
  ],
};
