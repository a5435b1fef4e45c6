/** Shapes of the chat calls (the chat routes in /api/docs and the Socket.IO events). */

/** GET /api/messages/contacts entry (the shape of GET /api/auth/allusers/:userId). `avatarImage` is base64 SVG markup. */
export interface ChatContact {
  _id: string;
  username: string;
  avatarImage?: string | null;
}

/** GET /api/auth/users/search answer: one page of users to start a conversation with. */
export interface UserSearchPage {
  users: ChatContact[];
  page: number;
  hasMore: boolean;
}

/** GET /api/messages/conversation/:contactId entry, as seen by the caller. */
export interface ConversationMessage {
  _id: string;
  fromSelf: boolean;
  message: string;
  createdAt: string;
}

/** A stored message as the server pushes it (`chat:message`, `chat:sent`) or answers a send. */
export interface DeliveredMessage {
  _id: string;
  from: string;
  to: string;
  message: string;
  createdAt: string;
}

/** GET /api/messages/unread: unread count per contact id. */
export type UnreadCounts = Record<string, number>;

export type MessageStatus = 'sent' | 'sending' | 'failed';

/** A message on screen: stored ones plus my own optimistic ones. */
export interface ChatMessage {
  /** Stable React key: the server id, or the client id of an optimistic message. */
  key: string;
  /** Server id once stored. */
  id: string | null;
  fromSelf: boolean;
  text: string;
  createdAt: string;
  status: MessageStatus;
  /** Why the last send failed. */
  error?: string;
  /** The failure cannot pass by trying again (a block stands between the two): no Retry is offered. */
  final?: boolean;
}
