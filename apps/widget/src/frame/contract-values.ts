// The few runtime values the chat takes from @titan/contracts. Importing them from that package
// would bundle zod with its schemas (~40 KB gzip, half the frame's budget), so they are mirrored
// here and __tests__/contract-values.test.ts proves they still equal the contracts' own.
// Types are imported from @titan/contracts directly: type-only imports cost nothing.
export const OWN_CHANNEL_FILE_LIMIT_BYTES = 10 * 1024 * 1024;
export const FILE_TOO_LARGE_MESSAGE = 'File size too large. Maximum size is 10MB.';
export const REQUEST_TIMEOUT_MS = 5000;
export const UPLOAD_TIMEOUT_MS = 20_000;
export const REALTIME_PATH = '/api/realtime/';
export const REALTIME_CLOSE_TOKEN_EXPIRED = 4001;
export const REALTIME_CLOSE_UNAUTHORIZED = 4003;
