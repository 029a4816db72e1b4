// pino: readable lines in development, JSON in production, nothing secret ever.
import { pino, type Logger } from 'pino';
import type { Config } from '../config';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.access_token',
  '*.refresh',
  '*.token',
  '*.app_secret',
];

export function loggerOptions(config: Pick<Config, 'NODE_ENV' | 'LOG_LEVEL'>): pino.LoggerOptions {
  const pretty = config.NODE_ENV === 'development';
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

export function createLogger(config: Pick<Config, 'NODE_ENV' | 'LOG_LEVEL'>): Logger {
  const options = loggerOptions(config);
  if (options.transport) return pino(options);
  // Asynchronous writes: lines logged while one write is under way go out together in the next,
  // instead of a blocking write per line. Pino flushes what is left when the process exits.
  return pino(options, pino.destination({ dest: 1, sync: false }));
}
