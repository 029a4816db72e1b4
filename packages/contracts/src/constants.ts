// Business constants from spec section 9, shared by server, web and widget.
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
