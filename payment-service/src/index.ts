import { ConfigError, loadPaymentConfig } from './config.js';
import { startPaymentService } from './start.js';

async function main() {
  let config;
  try {
    config = loadPaymentConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`[payments] ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const service = await startPaymentService(config);
  const shutdown = (signal: string) => {
    console.log(`[payments] ${signal} received, shutting down`);
    // Longer than the drain (5 s) of requests in flight; docker-compose's stop_grace_period is longer still.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('[payments] shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('[payments] failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
