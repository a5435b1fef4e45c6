/**
 * The Daraja simulator as its own process: `npm start` runs it when no Daraja credentials are set, docker-compose
 * and `npm run cluster` as a service of their own. Configuration: simulator/src/config.ts (SIMULATOR_*).
 */
import { ConfigError, loadSimulatorConfig } from './config.js';
import { startDarajaSimulator } from './server.js';

let config;
try {
  config = loadSimulatorConfig();
} catch (error) {
  console.error(`[daraja-simulator] ${error instanceof ConfigError ? error.message : String(error)}`);
  process.exit(1);
}
const running = await startDarajaSimulator(config);
const pages = config.publicUrl ?? running.url;
// For the developer at the console: each buyer gets only their own prompt's link (the payment dialog).
console.log(`[daraja-simulator] Daraja API on ${running.url}; simulated M-Pesa phone with every prompt: ${pages}/simulator?key=${running.key} (SIMULATOR_KEY)`);
const stop = () => void running.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
