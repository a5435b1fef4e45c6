import { ConfigError, loadConfig } from './config.js';
import { logUnhandledRejections } from './lib/unhandled-rejections.js';
import { startServer } from './server.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`[tukio] ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  logUnhandledRejections((message, reason) => console.error(`[tukio] ${message}:`, reason));
  const server = await startServer(config);
  const shutdown = (signal: string) => {
    console.log(`[tukio] ${signal} received, shutting down`);
    // Draining (5 s), then queued mail (up to 5 s per queue): docker-compose's stop_grace_period is longer.
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('[tukio] shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('[tukio] failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
