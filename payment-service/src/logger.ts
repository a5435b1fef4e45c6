import { createLogger as createServiceLogger, type LogLevel } from '@tukio/shared/node/logger';

export type { Logger } from '@tukio/shared/node/logger';

/**
 * The payment service's logger (pino with the services' redaction, @tukio/shared): its lines are named
 * `payments`. Never request bodies, tokens or keys.
 */
export const createLogger = (level: LogLevel, service = 'payments') => createServiceLogger({ service, level });
