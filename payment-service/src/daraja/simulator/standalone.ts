/**
 * The Daraja simulator on its own port, for trying a Daraja client without the payment service:
 *   SIMULATOR_PORT=27685 node dist/daraja/simulator/standalone.js
 * Protocol under /, phone page under /simulator. Credentials default to the simulator's own
 * (SIMULATOR_CREDENTIALS in config.ts); DARAJA_* variables override them. The list of every prompt
 * (/simulator, /simulator/prompts), the payouts, their modes and the ledger need SIMULATOR_KEY (a fresh random
 * key, printed, when unset). Its public key, which a payment service encrypts the initiator password with
 * (DARAJA_CERT_PATH), is at /simulator/certificate.pem and changes with every start.
 * It posts callbacks and results only to SIMULATOR_CALLBACK_ORIGINS (comma-separated; default the origin of
 * DARAJA_CALLBACK_URL, else the payment service's default http://127.0.0.1:27684) and listens on SIMULATOR_HOST
 * (default 127.0.0.1; 0.0.0.0 in a container): its credentials are public.
 */
import { randomBytes } from 'node:crypto';
import express from 'express';
import helmet from 'helmet';
import { callbackOriginsOf, ConfigError, SIMULATOR_CREDENTIALS } from '../../config.js';
import { createLogger } from '../../logger.js';
import { createDarajaSimulator } from './simulator.js';

const env = process.env;
const key = env.SIMULATOR_KEY || randomBytes(24).toString('base64url');
let callbackOrigins: string[];
try {
  callbackOrigins = callbackOriginsOf(env.SIMULATOR_CALLBACK_ORIGINS || env.DARAJA_CALLBACK_URL || 'http://127.0.0.1:27684', 'SIMULATOR_CALLBACK_ORIGINS');
} catch (error) {
  console.error(`[daraja-simulator] ${error instanceof ConfigError ? error.message : String(error)}`);
  process.exit(1);
}
const simulator = createDarajaSimulator({
  shortcode: env.DARAJA_SHORTCODE ?? SIMULATOR_CREDENTIALS.shortcode,
  passkey: env.DARAJA_PASSKEY ?? SIMULATOR_CREDENTIALS.passkey,
  consumerKey: env.DARAJA_CONSUMER_KEY ?? SIMULATOR_CREDENTIALS.consumerKey,
  consumerSecret: env.DARAJA_CONSUMER_SECRET ?? SIMULATOR_CREDENTIALS.consumerSecret,
  initiatorName: env.DARAJA_INITIATOR_NAME ?? SIMULATOR_CREDENTIALS.initiatorName,
  initiatorPassword: env.DARAJA_INITIATOR_PASSWORD ?? SIMULATOR_CREDENTIALS.initiatorPassword,
  b2cShortcode: env.DARAJA_B2C_SHORTCODE ?? SIMULATOR_CREDENTIALS.b2cShortcode,
  delayMs: Number(env.SIMULATOR_DELAY_MS ?? 3000),
  promptTimeoutMs: Number(env.SIMULATOR_PROMPT_TIMEOUT_MS ?? 60_000),
  tokenTtlSeconds: Number(env.SIMULATOR_TOKEN_TTL_SECONDS ?? 3599),
  key,
  callbackOrigins,
  logger: createLogger('info', 'daraja-simulator'),
});
const app = express();
app.use(helmet());
app.use('/simulator', simulator.phone);
app.use('/', simulator.api);
const port = Number(env.SIMULATOR_PORT ?? 27685);
const server = app.listen(port, env.SIMULATOR_HOST || '127.0.0.1', () => console.log(`[daraja-simulator] on http://localhost:${port} (every prompt: http://localhost:${port}/simulator?key=${key})`));
process.once('SIGTERM', () => {
  simulator.close();
  server.close(() => process.exit(0));
});
