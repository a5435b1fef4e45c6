/**
 * The realtime side of chat: one Socket.IO connection per chat screen (same origin, default
 * path, bearer token in the handshake). This module is the only importer of socket.io-client,
 * and only the chat route imports it, so the library stays in the chat chunk.
 *
 * Server events used:  chat:message (a message to me), chat:sent (my own message, e.g. sent from
 * another tab), presence {changes: [{userId, online}]}, session:ended (just before the server disconnects a
 * socket whose token was revoked or expired). The legacy `msg-recieve` (bare text, no sender) is
 * deliberately ignored: it cannot tell which conversation a message belongs to.
 * Client events:       add-user (ack {ok}), online-users (ack {ok, users}: me and my contacts), send-msg (ack {ok, message|msg}).
 */
import { io, type Socket } from 'socket.io-client';
import { failureCode, failureMessage } from '../../../lib/errors';
import { t } from '../../../lib/i18n';
import { handleUnauthorized } from '../../../lib/session-auth';
import { addMessage } from '../api/chat-api';
import type { DeliveredMessage } from '../types';

/** `stopped`: the server refused or ended the connection; no automatic retry (see reconnect()). */
export type ConnectionState = 'connecting' | 'online' | 'offline' | 'stopped';

interface ChatClientEvents {
  state: ConnectionState;
  /** A stored message involving me, pushed by the server (to me, or from me in another tab). */
  message: DeliveredMessage;
  presence: { userId: string; online: boolean };
  /** The full online list, after every (re)connect. */
  online: string[];
  /** The connection came back after a drop: anything pushed meanwhile was missed. */
  resync: undefined;
}

type Listener<T> = (payload: T) => void;

/** How long to wait for the server to confirm a message before calling it failed. */
const SEND_TIMEOUT_MS = 10_000;
const ACK_TIMEOUT_MS = 5_000;

function isDelivered(value: unknown): value is DeliveredMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return (
    typeof m._id === 'string' &&
    typeof m.from === 'string' &&
    typeof m.to === 'string' &&
    typeof m.message === 'string' &&
    typeof m.createdAt === 'string'
  );
}

export class SendError extends Error {
  constructor(
    message: string,
    /** The refusal's code, when the server gave one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export class ChatClient {
  private readonly socket: Socket;
  private readonly listeners = new Map<keyof ChatClientEvents, Set<Listener<never>>>();
  private connectedOnce = false;
  private closed = false;
  /** Who the server last said is online (the list, then presence changes). */
  private readonly online = new Set<string>();
  /** People whose state was asked again after a first message with them, once each. */
  private readonly askedAbout = new Set<string>();
  state: ConnectionState = 'connecting';

  constructor(
    token: string,
    private readonly userId: string,
  ) {
    this.socket = io({ auth: { token }, autoConnect: false });

    this.socket.on('connect', () => {
      this.setState('online');
      this.socket.timeout(ACK_TIMEOUT_MS).emit('add-user', userId, () => undefined);
      this.askOnline();
      if (this.connectedOnce) this.emit('resync', undefined);
      this.connectedOnce = true;
    });

    this.socket.on('disconnect', () => {
      if (!this.closed) this.setState(this.socket.active ? 'offline' : 'stopped');
    });

    // The server ends the connection when its token stops working (logout elsewhere, password reset,
    // expiry): the session is over here too, as after a 401.
    this.socket.on('session:ended', () => handleUnauthorized(`Bearer ${token}`));

    this.socket.on('connect_error', () => {
      // `active` is false when the server's auth middleware refused the handshake: no retries then.
      this.setState(this.socket.active ? 'offline' : 'stopped');
    });

    const onMessage = (payload: unknown) => {
      if (!isDelivered(payload) || (payload.to !== userId && payload.from !== userId)) return;
      this.emit('message', payload);
      this.learnPresenceOf(payload.from === userId ? payload.to : payload.from);
    };
    this.socket.on('chat:message', onMessage);
    this.socket.on('chat:sent', onMessage);

    // The server batches presence: `{changes: [{userId, online}]}` about once a second.
    this.socket.on('presence', (payload: unknown) => {
      const changes = (payload as { changes?: unknown } | null)?.changes;
      if (!Array.isArray(changes)) return;
      for (const change of changes as Array<{ userId?: unknown; online?: unknown } | null>) {
        if (change && typeof change.userId === 'string' && typeof change.online === 'boolean') {
          if (change.online) this.online.add(change.userId);
          else this.online.delete(change.userId);
          this.emit('presence', { userId: change.userId, online: change.online });
        }
      }
    });

    this.socket.connect();
  }

  on<K extends keyof ChatClientEvents>(event: K, listener: Listener<ChatClientEvents[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  private emit<K extends keyof ChatClientEvents>(event: K, payload: ChatClientEvents[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) (listener as Listener<ChatClientEvents[K]>)(payload);
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', state);
  }

  /** The online list (the server answers with me and my contacts only). */
  private askOnline(): void {
    this.socket.timeout(ACK_TIMEOUT_MS).emit('online-users', (error: unknown, reply: unknown) => {
      if (error) return;
      const users = (reply as { ok?: boolean; users?: unknown } | undefined)?.users;
      if (!Array.isArray(users)) return;
      const ids = users.filter((id): id is string => typeof id === 'string');
      this.online.clear();
      for (const id of ids) this.online.add(id);
      this.emit('online', ids);
    });
  }

  /**
   * Presence is shared between contacts only, and a first message makes two people contacts: the server told
   * neither about the other before it, so the list is asked again (once per person, when not known online).
   */
  private learnPresenceOf(otherId: string): void {
    if (this.online.has(otherId) || this.askedAbout.has(otherId) || !this.socket.connected) return;
    this.askedAbout.add(otherId);
    this.askOnline();
  }

  /**
   * Sends over the socket when connected (the ack carries the stored message), otherwise over
   * HTTP. Rejects with a user-readable message when the server refuses or does not answer.
   */
  async send(to: string, message: string): Promise<DeliveredMessage> {
    if (!this.socket.connected) return addMessage({ from: this.userId, to, message });
    let reply: unknown;
    try {
      reply = await this.socket.timeout(SEND_TIMEOUT_MS).emitWithAck('send-msg', { to, from: this.userId, message });
    } catch {
      throw new SendError(t('chat.notConfirmed'));
    }
    const r = (reply ?? {}) as { ok?: unknown; message?: unknown };
    if (r.ok === true && isDelivered(r.message)) {
      this.learnPresenceOf(to);
      return r.message;
    }
    // A refusal says why as an HTTP failure body would ({msg, code}): in the reader's language when its code is known.
    throw new SendError(failureMessage(reply) ?? t('chat.couldNotSend'), failureCode(reply));
  }

  /** Tries again after the connection stopped. */
  reconnect(): void {
    if (this.closed || this.socket.connected) return;
    this.setState('connecting');
    this.socket.connect();
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.socket.removeAllListeners();
    this.socket.disconnect();
  }
}
