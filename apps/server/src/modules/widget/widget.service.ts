// Who may embed a business's chat: the allowed origins of the business and of the group, as
// a Content-Security-Policy for the frame page. No origins listed means any site may embed it.
import type { Db } from '../../db/client';
import { findBusinessByCode } from '../business';
import { findGroupBySlug } from '../chat-groups';

/** Origins as the chat-group and widget-settings schemas store them; anything else is left out. */
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/;
const CODE = /^[^/\s]{1,64}$/;

/** The allowed origins for a business (and group), or null when either does not exist. */
export async function findEmbedOrigins(
  db: Db,
  businessCode: string,
  groupSlug: string | null,
): Promise<string[] | null> {
  if (!CODE.test(businessCode) || (groupSlug !== null && !CODE.test(groupSlug))) return null;
  const business = await findBusinessByCode(db, businessCode);
  if (!business) return null;
  const group = groupSlug === null ? null : await findGroupBySlug(db, business.id, groupSlug);
  if (groupSlug !== null && !group) return null;
  return [...new Set([...business.widgetAllowedOrigins, ...(group?.allowedOrigins ?? [])])];
}

/** `frame-ancestors` for the frame: Titan itself plus the allowed origins, or any site. */
export function frameAncestors(allowedOrigins: string[]): string {
  const origins = allowedOrigins.map((o) => o.toLowerCase()).filter((o) => ORIGIN.test(o));
  return origins.length === 0 ? '*' : ["'self'", ...origins].join(' ');
}

/** The frame page's policy: the chat's own scripts, API and files only; embedding as given. */
export function framePagePolicy(ancestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "media-src 'self' blob: https:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}
