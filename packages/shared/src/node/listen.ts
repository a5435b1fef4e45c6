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
