// The one pino logger factory. Tokens never reach the logs: the Authorization header and
// anything named token are redacted wherever they appear. Lines are JSON for machines (log
// collectors, files, pipes) and readable lines for people: `LOG_FORMAT=auto` (the default)
// chooses by whether standard output is a terminal; pino-pretty is loaded only then.
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

export type LogFormat = 'pretty' | 'json';

/** What `auto` means for this process: pretty lines on a terminal, JSON elsewhere. */
export function resolveLogFormat(setting: Config['logFormat'] | undefined, isTty = Boolean(process.stdout.isTTY)): LogFormat {
  if (setting === 'pretty' || setting === 'json') return setting;
  return isTty ? 'pretty' : 'json';
}

/** Readable lines, written synchronously (a line logged just before exit is not lost). */
function prettyStream(): DestinationStream {
  const require = createRequire(import.meta.url);
  const pretty = require('pino-pretty') as (opts: Record<string, unknown>) => DestinationStream;
  return pretty({ sync: true, colorize: Boolean(process.stdout.isTTY), translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' });
}

export function createLogger(config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>, name = 'metaserver'): Logger {
  const options = {
    name,
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'token', '*.token', 'adminToken', '*.adminToken'],
      censor: '[redacted]',
    },
  };
  return resolveLogFormat(config.logFormat) === 'pretty' ? pino(options, prettyStream()) : pino(options);
}
