import type { Server, Socket } from 'socket.io';
import { z } from 'zod';
import { isId } from '../../db/ids.js';
import { AppError } from '../../lib/app-error.js';
import type { Logger } from '../../lib/logger.js';
import type { AuthService, AuthUser } from '../auth/auth.service.js';
import type { ChatService } from './chat.service.js';

const userRoom = (userId: string) => `user:${userId}`;

const sendPayload = z.object({ to: z.string(), from: z.string(), message: z.string().max(10_000) });

type Ack = (response: Record<string, unknown>) => void;
const ackOf = (value: unknown): Ack => (typeof value === 'function' ? (value as Ack) : () => undefined);

/**
 * Socket.IO keeps the original events (`add-user`, `send-msg`, `msg-recieve`) but every socket
 * is authenticated in the handshake and may only speak as its own user.
 */
export function attachChatSocket(io: Server, deps: { auth: AuthService; chat: ChatService; logger: Logger }) {
  // Once shutdown starts the Redis adapter may already be gone: broadcasting then would only reject.
  let shuttingDown = false;
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const user = typeof token === 'string' ? await deps.auth.authenticate(token).catch(() => undefined) : undefined;
    if (!user) {
      next(new Error('Authentication required'));
      return;
    }
    socket.data.user = user;
    next();
  });

  // Delivery runs off the service, so messages stored through HTTP reach sockets too, on any instance.
  deps.chat.onMessage((message) => {
    if (shuttingDown) return;
    io.to(userRoom(message.to)).emit('msg-recieve', message.message);
    io.to(userRoom(message.to)).emit('chat:message', message);
    io.to(userRoom(message.from)).emit('chat:sent', message);
  });

  io.on('connection', async (socket: Socket) => {
    const user = socket.data.user as AuthUser;
    await socket.join(userRoom(user.id));
    socket.broadcast.emit('presence', { userId: user.id, online: true });

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
      try {
        const message = await deps.chat.send(user.id, parsed.data.to, parsed.data.message);
        reply({ ok: true, message });
      } catch (error) {
        if (error instanceof AppError) reply({ ok: false, msg: error.message });
        else {
          deps.logger.error('send-msg failed', error);
          reply({ ok: false, msg: 'Your message could not be sent. Please try again.' });
        }
      }
    });

    socket.on('online-users', async (ack: unknown) => {
      const sockets = await io.fetchSockets();
      ackOf(ack)({ ok: true, users: [...new Set(sockets.map((s) => (s.data.user as AuthUser).id))] });
    });

    socket.on('disconnect', async () => {
      try {
        if (shuttingDown) return;
        const stillOnline = await io.in(userRoom(user.id)).fetchSockets();
        if (stillOnline.length === 0 && !shuttingDown) socket.broadcast.emit('presence', { userId: user.id, online: false });
      } catch {
        // The server is shutting down (adapter closed); nobody is left to tell.
      }
    });
  });

  return {
    shutdown() {
      shuttingDown = true;
    },
  };
}
