/**
 * State of one open conversation: stored messages (oldest first, unique by server id) followed
 * by my own messages that are still being sent or failed, in the order I wrote them. History comes
 * in pages from the server, newest first (server/src/lib/keyset-page.ts).
 */
import type { ListPage } from '../../../hooks/use-paged-list';
import type { ChatMessage, ConversationMessage, DeliveredMessage } from '../types';

export interface ConversationState {
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  messages: ChatMessage[];
  /** The server holds older messages than the oldest shown. */
  hasMore: boolean;
  /** Pass to the server for the next older page; null when the oldest is shown. */
  nextCursor: string | null;
  /** How many stored messages the whole conversation holds (the server's count, plus those arrived since). */
  total: number;
  loadingOlder: boolean;
  olderError: string | null;
}

export type ConversationAction =
  | { type: 'loaded'; page: ListPage<ConversationMessage> }
  | { type: 'load-failed'; error: string }
  | { type: 'reload' }
  | { type: 'older-started' }
  | { type: 'older-loaded'; page: ListPage<ConversationMessage> }
  | { type: 'older-failed'; error: string }
  /** The newest page fetched again after a reconnect: merge, keep what is shown. */
  | { type: 'synced'; page: ListPage<ConversationMessage> }
  /** A stored message pushed by the server (to me, or from me in another tab). */
  | { type: 'received'; message: DeliveredMessage; selfId: string }
  | { type: 'send-started'; key: string; text: string; createdAt: string }
  | { type: 'send-confirmed'; key: string; message: DeliveredMessage }
  | { type: 'send-failed'; key: string; error: string; final: boolean }
  | { type: 'discard'; key: string };

export const initialConversationState: ConversationState = {
  status: 'loading',
  error: null,
  messages: [],
  hasMore: false,
  nextCursor: null,
  total: 0,
  loadingOlder: false,
  olderError: null,
};

const fromServer = (m: ConversationMessage): ChatMessage => ({
  key: m._id,
  id: m._id,
  fromSelf: m.fromSelf,
  text: m.message,
  createdAt: m.createdAt,
  status: 'sent',
});

const fromDelivered = (m: DeliveredMessage, selfId: string): ChatMessage => ({
  key: m._id,
  id: m._id,
  fromSelf: m.from === selfId,
  text: m.message,
  createdAt: m.createdAt,
  status: 'sent',
});

function byTime(a: ChatMessage, b: ChatMessage): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  const ai = a.id ?? '';
  const bi = b.id ?? '';
  return ai < bi ? -1 : ai > bi ? 1 : 0;
}

/** Stored messages sorted and unique by id (first occurrence wins, so keys stay stable), then unsent ones. */
function normalize(messages: ChatMessage[]): ChatMessage[] {
  const seen = new Set<string>();
  const stored: ChatMessage[] = [];
  const unsent: ChatMessage[] = [];
  for (const m of messages) {
    if (m.status !== 'sent' || m.id === null) {
      unsent.push(m);
    } else if (!seen.has(m.id)) {
      seen.add(m.id);
      stored.push(m);
    }
  }
  stored.sort(byTime);
  return [...stored, ...unsent];
}

/**
 * Puts a stored message of mine in place of the matching optimistic one: the one with `key`
 * (the send's own acknowledgement), else the oldest one still sending with the same text (the
 * server pushes `chat:sent` to every tab of mine, and on this tab that push arrives before the ack).
 */
function confirmOwn(messages: ChatMessage[], stored: ChatMessage, key?: string): ChatMessage[] {
  const unsent = (m: ChatMessage) => m.status !== 'sent';
  if (messages.some((m) => m.id === stored.id)) {
    // Already shown: only an optimistic copy with this key can be left over.
    return key ? messages.filter((m) => !(m.key === key && unsent(m))) : messages;
  }
  const index = key
    ? messages.findIndex((m) => m.key === key && unsent(m))
    : messages.findIndex((m) => m.status === 'sending' && m.text.trim() === stored.text);
  if (index === -1) return [...messages, stored];
  const next = messages.slice();
  next[index] = { ...stored, key: messages[index]!.key };
  return next;
}

const storedCount = (messages: ChatMessage[]) => messages.filter((m) => m.status === 'sent' && m.id !== null).length;

/** `messages` in place of the state's, counting stored messages that are new to it (arrived live or on a resync). */
function withArrivals(state: ConversationState, messages: ChatMessage[]): ConversationState {
  return { ...state, messages, total: state.total + storedCount(messages) - storedCount(state.messages) };
}

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case 'reload':
      return { ...state, status: 'loading', error: null };
    case 'loaded': {
      // Keep whatever arrived while the page was loading (and count what the page did not).
      const messages = normalize([...action.page.items.map(fromServer), ...state.messages]);
      return {
        ...state,
        status: 'ready',
        error: null,
        messages,
        hasMore: action.page.nextCursor !== null,
        nextCursor: action.page.nextCursor,
        total: action.page.total + storedCount(messages) - action.page.items.length,
      };
    }
    case 'load-failed':
      return { ...state, status: 'error', error: action.error };
    case 'older-started':
      return { ...state, loadingOlder: true, olderError: null };
    case 'older-loaded':
      return {
        ...state,
        loadingOlder: false,
        messages: normalize([...state.messages, ...action.page.items.map(fromServer)]),
        hasMore: action.page.nextCursor !== null,
        nextCursor: action.page.nextCursor,
      };
    case 'older-failed':
      return { ...state, loadingOlder: false, olderError: action.error };
    case 'synced':
      return withArrivals(state, normalize([...state.messages, ...action.page.items.map(fromServer)]));
    case 'received': {
      const message = fromDelivered(action.message, action.selfId);
      const messages = message.fromSelf ? confirmOwn(state.messages, message) : [...state.messages, message];
      return withArrivals(state, normalize(messages));
    }
    case 'send-started':
      return {
        ...state,
        messages: [
          ...state.messages.filter((m) => m.key !== action.key),
          { key: action.key, id: null, fromSelf: true, text: action.text, createdAt: action.createdAt, status: 'sending' },
        ],
      };
    case 'send-confirmed':
      return withArrivals(state, normalize(confirmOwn(state.messages, fromDelivered(action.message, action.message.from), action.key)));
    case 'send-failed':
      return {
        ...state,
        messages: state.messages.map((m) =>
          m.key === action.key && m.status === 'sending' ? { ...m, status: 'failed', error: action.error, final: action.final } : m,
        ),
      };
    case 'discard':
      return { ...state, messages: state.messages.filter((m) => m.key !== action.key || m.status === 'sent') };
    default:
      return state;
  }
}
