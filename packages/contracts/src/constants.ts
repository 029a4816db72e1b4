// Business constants from spec section 9, shared by server, web and widget. This file imports
// nothing, so `@titan/contracts/constants` costs a bundle no zod.
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 100;
export const OWN_CHANNEL_FILE_LIMIT_BYTES = 10 * 1024 * 1024;
export const REQUEST_TIMEOUT_MS = 5000;
export const WHATSAPP_TIMEOUT_MS = 30_000;
export const UPLOAD_TIMEOUT_MS = 20_000;
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 15 * 24 * 60 * 60;
export const MOBILE_BREAKPOINT_PX = 768;
export const BUSINESS_CODE_HEADER = 'x-business-code';
export const FILE_TOO_LARGE_MESSAGE = 'File size too large. Maximum size is 10MB.';
export const REALTIME_PATH = '/api/realtime/';
export const REALTIME_PING_INTERVAL_MS = 25_000;
export const REALTIME_CLOSE_TOKEN_EXPIRED = 4001;
export const REALTIME_CLOSE_UNAUTHORIZED = 4003;
/** The field message for text holding U+0000, which PostgreSQL cannot store. */
export const NUL_CHARACTER_MESSAGE = 'Null characters are not allowed.';
