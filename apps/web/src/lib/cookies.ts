// Cookie access for the session (spec section 9): path "/", SameSite=Lax, Secure on https, and on the
// parent product domain when the server's COOKIE_DOMAIN is set (host-only otherwise).

/**
 * The server names its COOKIE_DOMAIN in this meta tag of index.html: a setting read at start, not
 * baked into the build, so one build serves any domain.
 */
export const COOKIE_DOMAIN_META_NAME = 'titan-cookie-domain';

function cookieDomain(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${COOKIE_DOMAIN_META_NAME}"]`);
  return meta?.content.trim() || undefined;
}

function attributes(maxAgeSeconds: number): string {
  const parts = [`Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, 'Path=/', 'SameSite=Lax'];
  const domain = cookieDomain();
  if (domain) parts.push(`Domain=${domain}`);
  if (window.location.protocol === 'https:') parts.push('Secure');
  return parts.join('; ');
}

export function readCookie(name: string): string | null {
  for (const pair of document.cookie.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

export function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; ${attributes(maxAgeSeconds)}`;
}

export function deleteCookie(name: string): void {
  // Expire both the host-only and the parent-domain variant: either may have been set.
  document.cookie = `${name}=; Max-Age=0; Path=/`;
  document.cookie = `${name}=; ${attributes(0)}`;
}

/** Every cookie this page can see, as logout requires (spec section 4). */
export function deleteAllCookies(): void {
  const names = document.cookie
    .split(';')
    .map((pair) => pair.split('=')[0]?.trim() ?? '')
    .filter(Boolean);
  for (const name of new Set(names)) deleteCookie(name);
}
