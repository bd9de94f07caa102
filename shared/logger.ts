import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

/** Creates the process logger: JSON lines, request ids, secrets redacted. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers["x-auth-token"]',
        'req.headers["x-engine-token"]',
        'req.headers.cookie',
        'mail.text',
      ],
      censor: '[redacted]',
    },
  });
}
