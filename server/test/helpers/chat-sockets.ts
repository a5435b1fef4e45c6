import { io as connect, type Socket } from 'socket.io-client';

export type ChatAck = { ok: boolean; msg?: string; message?: { _id: string }; retryAfterMs?: number };

/** Opens authenticated chat sockets (no reconnection) and closes every one it opened at the end. */
export function socketTracker() {
  const sockets: Socket[] = [];
  return {
    open(url: string, token: string | undefined): Promise<Socket> {
      return new Promise((resolve, reject) => {
        const socket = connect(url, { auth: token ? { token } : {}, transports: ['websocket'], reconnection: false, forceNew: true });
        sockets.push(socket);
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', (error) => reject(error));
      });
    },
    closeAll() {
      sockets.forEach((socket) => socket.close());
    },
  };
}

export function nextEvent<T>(socket: Socket, event: string, timeoutMs = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Everything `socket` receives as `event` from now on. */
export function received(socket: Socket, event: string): unknown[] {
  const list: unknown[] = [];
  socket.on(event, (payload: unknown) => list.push(payload));
  return list;
}

/**
 * Resolves once everything the server sent `socket` (signed in as `userId`) before this call has arrived:
 * packets on one connection arrive in order, so the answer to a round trip comes after them. Checking that
 * something was not delivered waits for this instead of a fixed time. The round trip is `add-user` with
 * the socket's own id, which changes nothing (`online-users` would refresh the reused online list).
 */
export async function drained(socket: Socket, userId: string, timeoutMs = 5000): Promise<void> {
  await socket.timeout(timeoutMs).emitWithAck('add-user', userId);
}

export const emitWithAck = (socket: Socket, event: string, payload: unknown, timeoutMs = 3000) =>
  socket.timeout(timeoutMs).emitWithAck(event, payload) as Promise<ChatAck>;
