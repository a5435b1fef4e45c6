import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SIMULATOR_CREDENTIALS } from './config.js';

/**
 * What a payment service is configured with to use this simulator exactly as it would use Safaricom: the base URL,
 * the simulator's own app credentials, and the refund initiator with the simulated M-Pesa certificate, which
 * changes with every start (its PEM, from GET /simulator/certificate.pem, is written to `certificatePath`).
 * DARAJA_SIMULATOR=true lets the payment service hand buyers the simulator's phone-page links.
 */
export function paymentServiceEnv(simulatorUrl: string, certificatePem: string, certificatePath: string): Record<string, string> {
  writeFileSync(path.resolve(certificatePath), certificatePem);
  return {
    DARAJA_SIMULATOR: 'true',
    DARAJA_BASE_URL: simulatorUrl,
    DARAJA_CONSUMER_KEY: SIMULATOR_CREDENTIALS.consumerKey,
    DARAJA_CONSUMER_SECRET: SIMULATOR_CREDENTIALS.consumerSecret,
    DARAJA_SHORTCODE: SIMULATOR_CREDENTIALS.shortcode,
    DARAJA_PASSKEY: SIMULATOR_CREDENTIALS.passkey,
    DARAJA_INITIATOR_NAME: SIMULATOR_CREDENTIALS.initiatorName,
    DARAJA_INITIATOR_PASSWORD: SIMULATOR_CREDENTIALS.initiatorPassword,
    DARAJA_B2C_SHORTCODE: SIMULATOR_CREDENTIALS.b2cShortcode,
    DARAJA_CERT_PATH: path.resolve(certificatePath),
  };
}
