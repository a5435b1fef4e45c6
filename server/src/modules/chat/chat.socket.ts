import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import { isId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import { restrictionMessage } from '../../lib/auth.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import type { Logger } from '../../lib/logger.js';
import type { ChatService } from './chat.service.js';

/** Who a socket speaks as: chat needs only the user's id. */
interface ChatUser {
  id: string;
  /** Moderation: a suspended or banned account may keep reading but not send (docs/decisions/moderation.md). */
  suspendedUntil?: Date | null;
  bannedAt?: Date | null;
}

/**
 * How chat learns whose token a socket carries. The auth module sits above chat (its router serves the
 * legacy /api/auth/sendMessage with chat's schemas), so chat declares what it needs and realtime.ts
 * passes the auth service in. Undefined: the token is no longer valid.
 */
export interface ChatAuthenticator {
  authenticate(token: string): Promise<ChatUser | undefined>;
}

const userRoom = (userId: string) => `user:${userId}`;

const sendPayload = z.object({ to: z.string(), from: z.string(), message: z.string().max(10_000) });

type Ack = (response: Record<string, unknown>) => void;
const ackOf = (value: unknown): Ack => (typeof value === 'function' ? (value as Ack) : () => undefined);

/** Presence changes are sent in one batch per this many milliseconds, whatever the connect rate. */
const PRESENCE_BATCH_MS = 1000;
/** How long the cluster's online list is reused by clients asking for it (a reconnect storm asks 1000s of times). */
const ONLINE_LIST_REUSE_MS = 1000;

/**
 * Who is online. Each instance counts its own sockets per user; changes go out in batches
 * (`presence` `{changes: [{userId, online}]}`), at most one message per watching user per batch: a
 * connect per user announced at once would cost sockets² messages when many connect at once (after a
 * deploy, every client reconnects). A change reaches only the user themselves and their contacts
 * (`contactPairs`, one query per batch): a stranger, or either side of a block, is never told. With
 * several instances (`clustered`), the online list is the union of every instance's users, and a user
 * who went offline here but still has a tab on another instance is announced online again by that instance.
 */
function createPresence(
  io: Server,
  deps: { clustered: boolean; isShuttingDown: () => boolean; contactPairs: ChatService['contactPairs']; logger: Logger },
) {
  const { clustered, isShuttingDown } = deps;
  const local = new Map<string, number>();
  const pending = new Map<string, boolean>();
  let timer: NodeJS.Timeout | undefined;
  let listCache: { at: number; list: Promise<string[]> } | undefined;

  function queue(userId: string, online: boolean) {
    pending.set(userId, online);
    timer ??= setTimeout(() => void flush(), PRESENCE_BATCH_MS);
  }

  async function flush() {
    timer = undefined;
    if (isShuttingDown() || pending.size === 0) return;
    const changes = [...pending].map(([userId, online]) => ({ userId, online }));
    pending.clear();
    const gone = changes.filter((change) => !change.online).map((change) => change.userId);
    if (clustered && gone.length > 0) io.serverSideEmit('presence:gone', gone);
    let pairs: Array<{ userId: string; contactId: string }>;
    try {
      pairs = await deps.contactPairs(changes.map((change) => change.userId));
    } catch (error) {
      // The database away: these changes go again with the next batch, unless a newer one replaced them.
      deps.logger.error('presence contacts lookup failed', error);
      for (const change of changes) if (!pending.has(change.userId)) queue(change.userId, change.online);
      return;
    }
    if (isShuttingDown()) return;
    const byChange = new Map(changes.map((change) => [change.userId, change]));
    // Each user hears of their own presence too (their other tabs), as before.
    const audience = new Map<string, Array<{ userId: string; online: boolean }>>(changes.map((change) => [change.userId, [change]]));
    for (const { userId, contactId } of pairs) {
      const change = byChange.get(userId);
      if (!change) continue;
      const heard = audience.get(contactId);
      if (heard) heard.push(change);
      else audience.set(contactId, [change]);
    }
    for (const [watcher, heard] of audience) io.to(userRoom(watcher)).emit('presence', { changes: heard });
  }

  if (clustered) {
    io.on('presence:gone', (userIds: unknown) => {
      if (!Array.isArray(userIds)) return;
      for (const id of userIds) if (typeof id === 'string' && local.has(id)) queue(id, true);
    });
    io.on('presence:list', (reply: unknown) => {
      if (typeof reply === 'function') (reply as (ids: string[]) => void)([...local.keys()]);
    });
  }

  async function clusterList(): Promise<string[]> {
    const ids = new Set(local.keys());
    if (clustered) {
      // An instance that does not answer within the adapter's request timeout only leaves its users out.
      const replies = await new Promise<unknown[]>((resolve) => {
        io.serverSideEmit('presence:list', (_error: unknown, responses: unknown[]) => resolve(responses ?? []));
      });
      for (const reply of replies) if (Array.isArray(reply)) for (const id of reply) if (typeof id === 'string') ids.add(id);
    }
    return [...ids];
  }

  return {
    connected(userId: string) {
      const count = local.get(userId) ?? 0;
      local.set(userId, count + 1);
      if (count === 0) queue(userId, true);
    },
    disconnected(userId: string) {
      const count = (local.get(userId) ?? 1) - 1;
      if (count > 0) {
        local.set(userId, count);
        return;
      }
      local.delete(userId);
      queue(userId, false);
    },
    online(): Promise<string[]> {
      const now = Date.now();
      if (!listCache || now - listCache.at > ONLINE_LIST_REUSE_MS) listCache = { at: now, list: clusterList() };
      return listCache.list;
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

export const sessionEndedMessage = 'Your session has ended. Please log in again.';

/**
 * A socket lives only as long as its token: a token revoked (logout, password reset), expired or
 * belonging to a deleted user ends it. Every account change on any instance reaches each instance's
 * change feed (over Redis), which re-checks that user's sockets held here; a periodic sweep re-checks
 * every socket, for expiry and for a change nobody announced.
 */
function createSessionGuard(io: Server, deps: { auth: ChatAuthenticator; changes: ChangeFeed; logger: Logger; checkEveryMs: number }) {
  let sweeping = false;

  async function stillValid(socket: Socket): Promise<boolean> {
    const user = await deps.auth.authenticate(socket.data.token as string).catch((error: unknown) => {
      // The database being away is not a logout: keep the socket and look again next time.
      deps.logger.error('socket session check failed', error);
      return null;
    });
    return user === null || user?.id === (socket.data.user as ChatUser).id;
  }

  async function check(socket: Socket) {
    if (socket.connected && !(await stillValid(socket)) && socket.connected) end(socket);
  }

  function end(socket: Socket) {
    socket.emit('session:ended', { msg: sessionEndedMessage });
    socket.disconnect(true);
  }

  const localSocketsOf = (userId: string) =>
    [...(io.of('/').adapter.rooms.get(userRoom(userId)) ?? [])].flatMap((id) => io.of('/').sockets.get(id) ?? []);

  /** One socket at a time: a sweep over thousands of sockets must not burst the database. */
  async function checkAll(sockets: Socket[]) {
    for (const socket of sockets) await check(socket);
  }

  async function sweep() {
    if (sweeping) return;
    sweeping = true;
    try {
      await checkAll([...io.of('/').sockets.values()]);
    } finally {
      sweeping = false;
    }
  }

  // Registered after the auth service's own subscriber, which drops the cached lookup first.
  deps.changes.subscribe('user', (userId) => {
    void (userId === null ? sweep() : checkAll(localSocketsOf(userId)));
  });
  const timer = setInterval(() => void sweep(), deps.checkEveryMs);
  timer.unref();

  const lastEventCheck = new WeakMap<Socket, Promise<boolean>>();

  return {
    /**
     * Per event too, as HTTP checks the token per request: nothing is sent in the moment before a revoked
     * socket is dropped. A socket's checks finish in the order its events came (a lookup that misses the
     * cache must not let a later message overtake an earlier one), so its messages are stored in order.
     */
    allows(socket: Socket): Promise<boolean> {
      const check = (lastEventCheck.get(socket) ?? Promise.resolve(true)).then(async () => {
        if (await stillValid(socket)) return true;
        if (socket.connected) end(socket);
        return false;
      });
      lastEventCheck.set(socket, check);
      return check;
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/**
 * Socket.IO keeps the original events (`add-user`, `send-msg`, `msg-recieve`) but every socket
 * is authenticated in the handshake and may only speak as its own user.
 */
export function attachChatSocket(
  io: Server,
  deps: { auth: ChatAuthenticator; chat: ChatService; changes: ChangeFeed; logger: Logger; clustered: boolean; sessionCheckMs: number },
) {
  // Once shutdown starts the Redis adapter may already be gone: broadcasting then would only reject.
  let shuttingDown = false;
  const presence = createPresence(io, { clustered: deps.clustered, isShuttingDown: () => shuttingDown, contactPairs: deps.chat.contactPairs, logger: deps.logger });
  const sessions = createSessionGuard(io, { auth: deps.auth, changes: deps.changes, logger: deps.logger, checkEveryMs: deps.sessionCheckMs });
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const user = typeof token === 'string' ? await deps.auth.authenticate(token).catch(() => undefined) : undefined;
    if (!user) {
      next(new Error('Authentication required'));
      return;
    }
    socket.data.user = user;
    socket.data.token = token;
    next();
  });

  // Delivery runs off the service, so messages stored through HTTP reach sockets too, on any instance.
  deps.chat.onMessage((message, origin) => {
    if (shuttingDown) return;
    io.to(userRoom(message.to)).emit('msg-recieve', message.message);
    io.to(userRoom(message.to)).emit('chat:message', message);
    // The sender's other tabs; the sending socket has the message in its acknowledgement.
    (origin ? io.to(userRoom(message.from)).except(origin) : io.to(userRoom(message.from))).emit('chat:sent', message);
  });

  // A block ends presence both ways at once (the other side's chat would keep saying "Online"); lifting it shows the
  // truth again to contacts. The rooms reach every instance through the adapter.
  deps.chat.onBlockChange(({ blockerId, blockedId, blocked }) => {
    void (async () => {
      // Lifted between people who never wrote to each other: neither may learn the other's presence.
      if (!blocked && !(await deps.chat.contactsOf(blockerId)).has(blockedId)) return;
      const online = blocked ? new Set<string>() : new Set(await presence.online());
      if (shuttingDown) return;
      io.to(userRoom(blockedId)).emit('presence', { changes: [{ userId: blockerId, online: online.has(blockerId) }] });
      io.to(userRoom(blockerId)).emit('presence', { changes: [{ userId: blockedId, online: online.has(blockedId) }] });
    })().catch((error: unknown) => deps.logger.error('presence after a block change failed', error));
  });

  io.on('connection', async (socket: Socket) => {
    const user = socket.data.user as ChatUser;
    await socket.join(userRoom(user.id));
    presence.connected(user.id);

    socket.on('add-user', (userId: unknown, ack: unknown) => {
      if (userId !== user.id) {
        ackOf(ack)({ ok: false, msg: 'You can only register your own user id.' });
        socket.emit('chat:error', { msg: 'You can only register your own user id.' });
        return;
      }
      ackOf(ack)({ ok: true });
    });

    socket.on('send-msg', async (payload: unknown, ack: unknown) => {
      const reply = ackOf(ack);
      const parsed = sendPayload.safeParse(payload);
      if (!parsed.success || !isId(parsed.data.to)) {
        reply({ ok: false, msg: 'A message needs a recipient and text.' });
        return;
      }
      if (parsed.data.from !== user.id) {
        reply({ ok: false, msg: 'You can only send messages as yourself.' });
        return;
      }
      if (!(await sessions.allows(socket))) {
        reply({ ok: false, msg: sessionEndedMessage });
        return;
      }
      // A suspension or ban revokes the token (the socket is dropped); a new login still may not send.
      const restricted = restrictionMessage(user);
      if (restricted) {
        reply({ ok: false, msg: restricted, restricted: true });
        return;
      }
      try {
        const message = await deps.chat.send(user.id, parsed.data.to, parsed.data.message, socket.id);
        reply({ ok: true, message });
      } catch (error) {
        // The error's extra fields too: a refusal for sending too fast says when to try again (`retryAfterMs`); its
        // code and params as an HTTP failure carries them, so the client can say it in the reader's language and
        // tell a refusal that stands (a block) from one that passes.
        if (error instanceof AppError) {
          reply({ ...error.details?.body, ok: false, msg: error.message, code: error.code, ...(error.details?.params ? { params: error.details.params } : {}) });
        } else {
          deps.logger.error('send-msg failed', error);
          reply({ ok: false, msg: 'Your message could not be sent. Please try again.' });
        }
      }
    });

    // Only the caller's contacts (and the caller): the whole list would tell anyone signed in who is online.
    socket.on('online-users', async (ack: unknown) => {
      try {
        const [online, contacts] = await Promise.all([presence.online(), deps.chat.contactsOf(user.id)]);
        ackOf(ack)({ ok: true, users: online.filter((id) => id === user.id || contacts.has(id)) });
      } catch (error) {
        deps.logger.error('online-users failed', error);
        ackOf(ack)({ ok: false, msg: 'Who is online could not be loaded. Please try again.' });
      }
    });

    socket.on('disconnect', () => {
      presence.disconnected(user.id);
    });
  });

  return {
    shutdown() {
      shuttingDown = true;
      presence.stop();
      sessions.stop();
    },
  };
}
