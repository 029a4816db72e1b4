// The customer directory's API path and cache key prefix, shared by the directory screens and the
// inbox's customer panel (one fetcher, one cache key: docs/design/web.md).
import { BUSINESS_SCOPE } from '../query-client';

export const DIRECTORY_API_PATH = '/api/business/customer-directory/';

/** Every directory query of the business starts with this key. */
export const DIRECTORY_KEY = [BUSINESS_SCOPE, 'directory'] as const;
