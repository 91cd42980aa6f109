// The one pino logger factory. Tokens never reach the logs: the Authorization header and
// anything named token are redacted wherever they appear.
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

export function createLogger(config: Pick<Config, 'logLevel'>, name = 'metaserver'): Logger {
  return pino({
    name,
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'token', '*.token', 'adminToken', '*.adminToken'],
      censor: '[redacted]',
    },
  });
}
