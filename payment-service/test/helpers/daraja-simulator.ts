import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadSimulatorConfig, SIMULATOR_CREDENTIALS } from '../../../simulator/src/config.js';
import { paymentServiceEnv } from '../../../simulator/src/payment-service-env.js';
import { startDarajaSimulator, type RunningSimulator } from '../../../simulator/src/server.js';

/**
 * A payment service's Daraja settings for tests in which it never reaches Daraja (nothing listens at the base URL):
 * the simulator's app credentials, no refunds.
 */
export const UNREACHABLE_DARAJA: Record<string, string> = {
  DARAJA_SIMULATOR: 'true',
  DARAJA_BASE_URL: 'http://127.0.0.1:9',
  DARAJA_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey,
  DARAJA_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret,
  DARAJA_SHORTCODE: SIMULATOR_CREDENTIALS.shortcode,
  DARAJA_PASSKEY: SIMULATOR_CREDENTIALS.passkey,
};

export interface TestSimulator {
  running: RunningSimulator;
  /** Its own address (DARAJA_BASE_URL), where its phone pages are at /simulator. */
  url: string;
  key: string;
  /** The DARAJA_* and SIMULATOR_KEY variables of a payment service that uses it as Daraja. */
  paymentEnv: Record<string, string>;
  /** Lets it post callbacks and results to the payment service at `url` (known once that listens). */
  allowCallbacksTo(url: string): void;
  close(): Promise<void>;
}

/**
 * The Daraja simulator on a random loopback port, as `npm start` runs it when no Daraja credentials are set: the
 * payment service reaches it over HTTP with its credentials. Its certificate is written into `dataDir`.
 * `env` overrides its configuration (SIMULATOR_DELAY_MS…).
 */
export async function startTestSimulator(dataDir: string, env: Record<string, string | undefined> = {}): Promise<TestSimulator> {
  const key = env.SIMULATOR_KEY ?? randomBytes(24).toString('base64url');
  const config = loadSimulatorConfig({ SIMULATOR_PORT: '0', SIMULATOR_KEY: key, SIMULATOR_DELAY_MS: '40', LOG_LEVEL: 'silent', ...env });
  // Filled in once the payment service listens: until then no callback goes anywhere.
  if (env.SIMULATOR_CALLBACK_ORIGINS === undefined) config.callbackOrigins.length = 0;
  const running = await startDarajaSimulator(config);
  return {
    running,
    url: running.url,
    key,
    paymentEnv: {
      ...paymentServiceEnv(running.url, running.simulator.payouts.publicKeyPem(), path.join(dataDir, 'daraja-simulator.pem')),
      SIMULATOR_KEY: key,
    },
    allowCallbacksTo(url) {
      config.callbackOrigins.push(new URL(url).origin);
    },
    close: () => running.close(),
  };
}
