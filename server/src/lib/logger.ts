import { createLogger as createServiceLogger, type LogLevel } from '@tukio/shared/node/logger';

export type { Logger } from '@tukio/shared/node/logger';

/** The API server's logger (pino with the services' redaction, @tukio/shared): its lines are named `tukio`. */
export const createLogger = (level: LogLevel) => createServiceLogger({ service: 'tukio', level });
