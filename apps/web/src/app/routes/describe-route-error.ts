// Turns whatever a route threw (an Error, a thrown Response, anything) into an error report.
import { isRouteErrorResponse } from 'react-router';

import type { TErrorDetails } from '../../lib/analytics';

export function describeRouteError(error: unknown): TErrorDetails {
  if (isRouteErrorResponse(error)) {
    return { message: `${error.status} ${error.statusText}`.trim(), status: error.status };
  }
  if (error instanceof Error) return { message: error.message || error.name, stack: error.stack };
  if (typeof error === 'string') return { message: error };
  return { message: 'Unknown error' };
}
