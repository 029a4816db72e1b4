// pino: readable lines in development, JSON in production, nothing secret ever.
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, type Bindings, type ChildLoggerOptions, type Level, type Logger } from 'pino';
import type { Config } from '../config';
import { describeDatabaseError, driverErrorOf } from './db-errors';

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

/** Query parameters whose values are secrets: invitation tokens, file signatures, Meta's token. */
const SECRET_QUERY = /([?&](?:token|sig|signature|key|code|state|hub\.verify_token|access_token)=)[^&#]*/gi;
/** Pages whose last path segments are secrets (the links of api.md's mails). */
const SECRET_PATH = /^(\/auth\/account-confirm-email\/|\/invite-user\/join\/|\/forgot-password\/)[^?#]+/;
const REDACTED = '[redacted]';

/**
 * A URL fit for a log line: the values of secret query parameters and the token segments of mailed
 * links replaced. Most URLs pass on two substring checks and a regular expression test.
 */
export function redactUrl(url: string): string {
  let out = url;
  if (out.startsWith('/auth/') || out.startsWith('/invite-user/') || out.startsWith('/forgot-password/'))
    out = out.replace(SECRET_PATH, `$1${REDACTED}`);
  if (out.includes('?')) out = out.replace(SECRET_QUERY, `$1${REDACTED}`);
  return out;
}

/** Errors as pino writes them, except that a failed statement is described without its values. */
export function serializeError(err: unknown): unknown {
  const driver = err instanceof Error ? driverErrorOf(err) : null;
  return driver ? describeDatabaseError(err as Error, driver) : pino.stdSerializers.err(err as Error);
}

/**
 * Fastify's request serializer, with the URL redacted; the access line's own `req` (plain fields,
 * already redacted) passes as it is.
 */
function serializeRequest(value: FastifyRequest | Record<string, unknown>) {
  if (!('raw' in value)) return value;
  const request = value as FastifyRequest;
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function loggerOptions(config: Pick<Config, 'NODE_ENV' | 'LOG_LEVEL'>): pino.LoggerOptions {
  const pretty = config.NODE_ENV === 'development';
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: serializeError, req: serializeRequest },
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

/** How long a buffered log line may wait for the next write, at most. */
const LOG_FLUSH_MS = 1000;

export function createLogger(config: Pick<Config, 'NODE_ENV' | 'LOG_LEVEL'>): Logger {
  const options = loggerOptions(config);
  if (options.transport) return pino(options);
  // Lines are gathered into writes of 4 kB or more, flushed at least once a second, instead of a
  // write per line (one per request). Pino flushes what is left when the process exits.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  return pino(options, destination);
}

/**
 * One access line per request, when it completes (Fastify logs two: incoming and completed). Its
 * fields are fixed and hold nothing secret, so it is written past the redaction, which costs more
 * than the rest of the line; failures go through the request's own (redacting) logger.
 * In development the line is short and at `debug`: the console of `npm start` is where people read
 * their confirmation mail, and a pretty-printed request object takes a dozen lines.
 */
export class AccessLogController extends LogController {
  private readonly access: Logger;
  private readonly development: boolean;

  constructor(logger: Logger, options: { development?: boolean } = {}) {
    super();
    this.access = logger.child({}, { redact: { paths: [] } });
    this.development = options.development ?? false;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) {
      request.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
      return;
    }
    if (this.development) {
      if (!this.access.isLevelEnabled('debug')) return;
      const ms = reply.elapsedTime.toFixed(1);
      this.access.debug(`${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${ms} ms`);
      return;
    }
    if (!this.access.isLevelEnabled('info')) return;
    this.access.info(
      {
        reqId: request.id,
        req: {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        },
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}

/**
 * A request's logger (bound to its request id), made on its first enabled line: most requests log
 * nothing past the access line, and a pino child builds and redacts its bindings when made.
 */
class LazyChildLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options) as FastifyBaseLogger);
  }

  get level(): string {
    return this.made ? this.made.level : this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.made && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

/** Fastify's per-request child logger, made lazily (a route's own log level makes it at once). */
export const lazyChildLoggerFactory = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger =>
  options.level
    ? logger.child(bindings, options)
    : (new LazyChildLogger(logger as unknown as Logger, bindings, options) as unknown as FastifyBaseLogger);
