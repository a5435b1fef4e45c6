import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen, outlastClientKeepAlive } from '@tukio/shared/node/listen';
import { createLogger } from '@tukio/shared/node/logger';
import { clientErrorAnswer, errorBody } from '@tukio/shared/error-body';
import express, { type ErrorRequestHandler } from 'express';
import helmet from 'helmet';
import { SIMULATOR_CREDENTIALS, type SimulatorConfig } from './config.js';
import { createDarajaSimulator, type DarajaSimulator } from './simulator.js';

export interface RunningSimulator {
  /** Its own address: the base URL a payment service sets as DARAJA_BASE_URL. */
  url: string;
  port: number;
  key: string;
  simulator: DarajaSimulator;
  close(): Promise<void>;
}

/**
 * Listens (port 0 = random) with Daraja's protocol at / and the phone pages at /simulator, the way a payment
 * service reaches Safaricom: over HTTP, with the simulator's own app credentials.
 */
export async function startDarajaSimulator(config: SimulatorConfig): Promise<RunningSimulator> {
  const logger = createLogger({ service: 'daraja-simulator', level: config.logLevel });
  const simulator = createDarajaSimulator({
    ...SIMULATOR_CREDENTIALS,
    delayMs: config.delayMs,
    c2bLateMs: config.c2bLateMs,
    promptTimeoutMs: config.promptTimeoutMs,
    tokenTtlSeconds: config.tokenTtlSeconds,
    key: config.key,
    callbackOrigins: config.callbackOrigins,
    logger,
  });
  const app = express();
  app.disable('x-powered-by');
  app.use(helmet());
  app.use('/simulator', simulator.phone);
  app.use('/', simulator.api);
  // Anything else, and requests its parsers refuse, answered in the JSON error body every Tukio service uses.
  app.use((_req, res) => {
    res.status(404).json(errorBody('Not found.', 'not_found'));
  });
  const answerError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    const answer = clientErrorAnswer(error, 'Send JSON or a form.');
    if (!answer) logger.error('simulator: request failed', error);
    res.status(answer?.status ?? 500).json(answer?.body ?? errorBody('The simulator failed to answer.', 'internal_error'));
  };
  app.use(answerError);
  const httpServer = createServer(app);
  outlastClientKeepAlive(httpServer);
  await listen(httpServer, { port: config.port, host: config.host });
  const { port } = httpServer.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    key: config.key,
    simulator,
    close() {
      simulator.close();
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections();
      return closed;
    },
  };
}
