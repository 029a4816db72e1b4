// One error type for the whole server, mapped to HTTP statuses and the api.md envelope in one place.
import type { TFieldErrors } from '@titan/contracts';

export type AppErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'internal'
  | 'bad_gateway'
  | 'gateway_timeout';

export function statusOf(code: AppErrorCode): number {
  switch (code) {
    case 'bad_request':
      return 400;
    case 'unauthorized':
      return 401;
    case 'payment_required':
      return 402;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'unprocessable':
      return 422;
    case 'rate_limited':
      return 429;
    case 'unavailable':
      return 503;
    case 'internal':
      return 500;
    case 'bad_gateway':
      return 502;
    case 'gateway_timeout':
      return 504;
    default: {
      const unreachable: never = code;
      throw new Error(`unmapped error code ${String(unreachable)}`);
    }
  }
}

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Goes to the envelope's `result`: field errors for 400, a dialog for 402. */
    readonly result: unknown = null,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return statusOf(this.code);
  }

  static fields(errors: TFieldErrors, message = 'Invalid input.'): AppError {
    return new AppError('bad_request', message, errors);
  }

  static notFound(message = 'Not found.'): AppError {
    return new AppError('not_found', message);
  }
}
