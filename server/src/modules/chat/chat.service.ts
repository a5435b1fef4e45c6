import { MAX_MESSAGE_LENGTH } from '@tukio/shared/limits';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { createBatcher } from '@tukio/shared/node/batcher';
import { toPage, type CursorKey } from '../../lib/keyset-page.js';
import { countWithinBytes } from '../../lib/page-budget.js';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import type { TokenBuckets } from '../../lib/token-bucket.js';
import { createChatRepository, type ChatMessageRow } from './chat.repository.js';

/** Senders whose unread counts GET /api/messages/unread answers (about 30 bytes each: well under 100 KB). */
export const UNREAD_SENDERS_MAX = 1000;

export const PAGE_SIZE = 50;
/** Users whose contacts one presence query looks up. */
const CONTACT_LOOKUP_CHUNK = 1000;

export interface DeliveredMessage {
  _id: string;
  from: string;
  to: string;
  message: string;
  createdAt: string;
}

export const toDelivered = (row: ChatMessageRow): DeliveredMessage => ({
  _id: row.id,
  from: row.senderId,
  to: row.recipientId,
  message: row.text,
  createdAt: row.createdAt.toISOString(),
});

/** What the other side sees of a message a moderator hid (the same words as community content). */
export const HIDDEN_MESSAGE = '[hidden by a moderator]';
export interface BlockChange {
  blockerId: string;
  blockedId: string;
  /** true: the block was made; false: lifted. */
  blocked: boolean;
}

export const blockedMessages = {
  byThem: 'You cannot message this user.',
  byYou: 'You blocked this user. Unblock them to send a message.',
  self: 'You cannot block yourself.',
} as const;

export const tooFastMessage = 'You are sending messages too fast. Please wait a moment and try again.';

/** A message as one side of the conversation reads it. */
function toConversationMessage(row: ChatMessageRow, self: string) {
  const fromSelf = row.senderId === self;
  // A hidden message: its sender still reads it, with the moderator's reason; the other side a placeholder.
  const hidden = row.hiddenAt ? (fromSelf ? { hidden: true, hiddenReason: row.hiddenReason ?? '' } : { hidden: true }) : { hidden: false };
  return {
    _id: row.id,
    fromSelf,
    message: row.hiddenAt && !fromSelf ? HIDDEN_MESSAGE : row.text,
    createdAt: row.createdAt.toISOString(),
    ...hidden,
  };
}

/**
 * Who people are, by id. Chat lists people by name and face but sits below auth (auth's router serves chat's
 * sendMessage), so it reads no users table: app.ts fills this port with auth's `chatProfiles`.
 */
export interface ChatPeople {
  /** The accounts among `ids`, in any order: username, avatar ('' for none), and whether it is a guest's shadow account. */
  profiles(ids: string[]): Promise<Array<{ id: string; username: string; avatarImage: string; guest: boolean }>>;
}

export function createChatService(deps: {
  db: Database;
  people: ChatPeople;
  synchronousCommit: boolean;
  /**
   * Per sender, whatever the way in (sockets, both HTTP paths), so extra tabs or connections buy no extra
   * budget; in Redis with several instances (app.ts), so reaching more of them buys none either.
   */
  sendBudget: TokenBuckets;
}) {
  const messages = createChatRepository(deps.db);
  /** Accounts that no longer exist are left out, as the join on users left them out. */
  const profilesById = async (ids: string[]) =>
    new Map(ids.length === 0 ? [] : (await deps.people.profiles(ids)).map((person) => [person.id, person]));
  const { sendBudget } = deps;
  // Under load many messages share one INSERT and one commit (a busy chat would otherwise pay a
  // round trip and a WAL flush per message); an idle one writes each at once. Without
  // `synchronousCommit` the commit does not wait for the WAL flush either (docs/decisions/chat.md).
  const store = createBatcher(
    (rows: Array<{ senderId: string; recipientId: string; text: string }>) => messages.insertMany(rows, { synchronousCommit: deps.synchronousCommit }),
    { maxBatch: 500 },
  );
  /** Whether either of the two blocked the other; the checks of many messages in one query under load. */
  const blockBetween = createBatcher(
    async (pairs: Array<readonly [string, string]>) => {
      const blocks = await messages.blocksBetween(pairs);
      return pairs.map(([a, b]) => blocks.find((block) => (block.blockerId === a && block.blockedId === b) || (block.blockerId === b && block.blockedId === a)));
    },
    { maxBatch: 200, inFlight: 4 },
  );
  /** Whose presence each user may see: the lookups of a reconnect storm in one query. */
  const contactsOfUser = createBatcher(
    async (userIds: string[]) => {
      const byUser = new Map<string, Set<string>>(userIds.map((userId) => [userId, new Set<string>()]));
      for (const pair of await messages.contactPairs([...byUser.keys()])) byUser.get(pair.userId)?.add(pair.contactId);
      return userIds.map((userId) => byUser.get(userId) ?? new Set<string>());
    },
    { maxBatch: 200, inFlight: 4 },
  );
  const listeners = new Set<(message: DeliveredMessage, origin: string | undefined) => void>();
  const blockListeners = new Set<(change: BlockChange) => void>();
  const announceBlock = (change: BlockChange) => {
    for (const listener of blockListeners) listener(change);
  };

  return {
    /** The realtime layer subscribes here, so a message sent over HTTP is pushed too. */
    /** `origin` is the socket the message came from, if any: it has its copy in the acknowledgement. */
    onMessage(listener: (message: DeliveredMessage, origin: string | undefined) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The realtime layer subscribes here to correct what each side of a new or lifted block sees of the other's presence. */
    onBlockChange(listener: (change: BlockChange) => void) {
      blockListeners.add(listener);
      return () => blockListeners.delete(listener);
    },

    async send(from: string, to: string, text: string, origin?: string): Promise<DeliveredMessage> {
      const trimmed = text.trim();
      if (!trimmed) throw AppError.badRequest('message_empty', 'Message cannot be empty.', 'message');
      if (trimmed.length > MAX_MESSAGE_LENGTH) throw AppError.badRequest('message_too_long', `Message must be at most ${MAX_MESSAGE_LENGTH} characters.`, { field: 'message', params: { max: MAX_MESSAGE_LENGTH } });
      if (from === to) throw AppError.badRequest('message_to_self', 'You cannot send a message to yourself.', 'to');
      const block = await blockBetween([from, to]);
      if (block) {
        throw block.blockerId === from
          ? AppError.forbidden('chat_blocked_by_you', blockedMessages.byYou)
          : AppError.forbidden('chat_blocked_by_them', blockedMessages.byThem);
      }
      const retryAfterMs = await sendBudget.take(from);
      if (retryAfterMs > 0) throw new AppError(429, 'chat_too_fast', tooFastMessage, { body: { retryAfterMs } });
      let row: ChatMessageRow;
      try {
        row = await store({ senderId: from, recipientId: to, text: trimmed });
      } catch (error) {
        // The foreign key decides whether the recipient exists: one round trip per message, not two.
        if (isForeignKeyViolation(error)) throw AppError.notFound('unknown_user', 'That user does not exist.');
        throw error;
      }
      const delivered = toDelivered(row);
      for (const listener of listeners) listener(delivered, origin);
      return delivered;
    },

    async conversation(self: string, other: string, before?: Date) {
      const rows = await messages.conversation(self, other, { before, limit: PAGE_SIZE });
      return rows.map((row) => toConversationMessage(row, self));
    },

    /** One page of a conversation, newest first (the client shows it bottom-up and asks for older pages on scroll-up). */
    async conversationPage(self: string, other: string, page: { limit: number; cursor?: CursorKey | undefined }) {
      const [rows, total] = await Promise.all([messages.conversationPage(self, other, { limit: page.limit + 1, after: page.cursor }), messages.countConversation(self, other)]);
      const views = rows.map(({ row }) => toConversationMessage(row, self));
      const sent = countWithinBytes(views, page.limit);
      return { ...toPage(rows, sent, total, ({ row, createdMicros }) => [createdMicros, row.id]), items: views.slice(0, sent) };
    },

    /** One page of the people the caller has talked with, most recent conversation first. */
    async contactPage(self: string, page: { limit: number; cursor?: CursorKey | undefined }) {
      const [partners, total] = await Promise.all([messages.contactPage(self, { limit: page.limit + 1, after: page.cursor }), messages.countContacts(self)]);
      const people = await profilesById(partners.map((partner) => partner.contactId));
      const rows = partners.flatMap(({ contactId, lastMicros }) => {
        const person = people.get(contactId);
        return person ? [{ _id: contactId, username: person.username, avatarImage: person.avatarImage, lastMicros }] : [];
      });
      const contacts = rows.map(({ lastMicros: _, ...contact }) => contact);
      // Avatars (up to 100 KB each) weigh most: a page holds as many contacts as fit.
      const sent = countWithinBytes(contacts, page.limit);
      return { ...toPage(rows, sent, total, (row) => [row.lastMicros, row._id]), items: contacts.slice(0, sent) };
    },

    /**
     * Presence is for contacts only (people one has exchanged a message with, no block either way): a
     * stranger learns nothing of who is online. `contactsOf` for one user, `contactPairs` for a batch of changes.
     */
    contactsOf: (userId: string): Promise<Set<string>> => contactsOfUser(userId),
    async contactPairs(userIds: string[]) {
      // A reconnect storm's batch can hold thousands of users: a statement per thousand keeps well under the parameter limit.
      const pairs: Array<{ userId: string; contactId: string }> = [];
      for (let start = 0; start < userIds.length; start += CONTACT_LOOKUP_CHUNK) pairs.push(...(await messages.contactPairs(userIds.slice(start, start + CONTACT_LOOKUP_CHUNK))));
      return pairs;
    },

    /**
     * A conversation opened by its link (`/chat?with=<id>`) with someone beyond the loaded pages of contacts: an
     * account (not a guest's shadow one) the caller has exchanged messages with and that has not blocked the
     * caller. Anyone else is not the caller's to look up (an id is no way to a username).
     */
    async contact(self: string, contactId: string) {
      const person = (await messages.isContact(self, contactId)) ? (await profilesById([contactId])).get(contactId) : undefined;
      if (!person || person.guest) throw AppError.notFound('user_not_found', 'That user does not exist.');
      return { _id: contactId, username: person.username, avatarImage: person.avatarImage };
    },

    /** Blocking: the blocked user can no longer message the blocker (nor the blocker them) and no longer sees them in contacts. */
    async block(self: string, other: string) {
      if (self === other) throw AppError.badRequest('block_self', blockedMessages.self, 'userId');
      try {
        await messages.block(self, other);
      } catch (error) {
        if (isForeignKeyViolation(error)) throw AppError.notFound('unknown_user', 'That user does not exist.');
        throw error;
      }
      announceBlock({ blockerId: self, blockedId: other, blocked: true });
    },
    async unblock(self: string, other: string) {
      await messages.unblock(self, other);
      announceBlock({ blockerId: self, blockedId: other, blocked: false });
    },
    async blocks(self: string) {
      const rows = await messages.blockedBy(self);
      const people = await profilesById(rows.map((row) => row.blockedId));
      return rows.flatMap((row) => {
        const person = people.get(row.blockedId);
        return person ? [{ _id: row.blockedId, username: person.username, blockedAt: row.blockedAt.toISOString() }] : [];
      });
    },

    /** For moderation (above chat): a message, the conversation it sits in, hiding and deleting. */
    moderation: {
      find: (id: string) => messages.findById(id),
      /** The last `limit` messages between the two, oldest first, up to and including the reported one's time. */
      around: (row: ChatMessageRow, limit: number) => messages.conversation(row.senderId, row.recipientId, { before: new Date(row.createdAt.getTime() + 1), limit }),
      async setHidden(id: string, hidden: { by: string; reason: string } | null) {
        if (!(await messages.setHidden(id, hidden))) throw AppError.notFound('message_not_found', 'That message does not exist.');
      },
      remove: (id: string) => messages.delete(id),
    },

    markRead: (self: string, other: string) => messages.markRead(self, other),

    /**
     * Badges for the contact list, which shows the latest conversations first a page at a time: the senders
     * who wrote last, UNREAD_SENDERS_MAX of them, so the answer stays small however many people wrote.
     */
    async unreadCounts(self: string): Promise<Record<string, number>> {
      const rows = await messages.unreadCounts(self, UNREAD_SENDERS_MAX);
      return Object.fromEntries(rows.map((row) => [row.from, row.count]));
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
