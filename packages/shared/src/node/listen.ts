import type { Server } from 'node:net';

/**
 * Starts listening and resolves once the server is bound. A port already in use (or not allowed) rejects, so
 * the service fails its start with a clear error that its caller can handle (close what it opened, report it);
 * Node's default is an 'error' event that, with no listener, ends the process as an uncaught exception.
 */
export function listen(server: Server, options: { port: number; host?: string | undefined; backlog?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Keeps idle keep-alive connections open longer than the clients that reuse them do (Node's fetch drops its idle
 * sockets after about 4 s; a proxy in front keeps them up to its own client timeout, 60 s in deploy/), so the
 * client closes first and never sends a request on a socket the server is closing at that moment. With Node's
 * default of 5 s a busy machine's late timers made that race real (ECONNRESET in the tests; behind a proxy it is a
 * 502). Headers must still arrive within a minute.
 */
export function outlastClientKeepAlive(server: { keepAliveTimeout: number; headersTimeout: number }) {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}
