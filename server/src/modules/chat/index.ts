/** The chat module's public face (docs/decisions/server-boundaries.md). */
export { contactAnswer, storedMessage } from './chat.responses.js';
export { createChatRouter, createSendMessage, type SendMessage } from './chat.routes.js';
export { createChatService, HIDDEN_MESSAGE, type ChatPeople, type ChatService } from './chat.service.js';
export { attachChatSocket } from './chat.socket.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { chatBlocks, chatMessages } from './chat.schema.js';
export { chatPersonalData } from './personal-data.js';
