import { afterEach, describe, expect, it, vi } from 'vitest';

import { COOKIE_DOMAIN_META_NAME } from '../cookies';
import { saveBusinessCode, saveTokens } from '../session/tokens';

/** Every Set-Cookie string the app writes, while still letting jsdom keep them. */
function recordCookieWrites(): string[] {
  const writes: string[] = [];
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
    writes.push(value);
    descriptor?.set?.call(document, value);
  });
  return writes;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('session cookies', () => {
  it('keep auth_token 15 minutes and refresh_token and business_code 15 days, on path / with SameSite=Lax', () => {
    const writes = recordCookieWrites();

    saveTokens({ access: 'a.b.c', refresh: 'r' });
    saveBusinessCode('ACME1234');

    expect(writes).toEqual([
      'auth_token=a.b.c; Max-Age=900; Path=/; SameSite=Lax',
      'refresh_token=r; Max-Age=1296000; Path=/; SameSite=Lax',
      'business_code=ACME1234; Max-Age=1296000; Path=/; SameSite=Lax',
    ]);
  });

  it('go on the parent product domain the server names at runtime (COOKIE_DOMAIN), one build for any', () => {
    const meta = document.createElement('meta');
    meta.name = COOKIE_DOMAIN_META_NAME;
    meta.content = '.example.com';
    document.head.append(meta);
    try {
      const writes = recordCookieWrites();
      saveBusinessCode('ACME1234');
      meta.content = '.example.org';
      saveBusinessCode('ACME1234');

      expect(writes).toEqual([
        'business_code=ACME1234; Max-Age=1296000; Path=/; SameSite=Lax; Domain=.example.com',
        'business_code=ACME1234; Max-Age=1296000; Path=/; SameSite=Lax; Domain=.example.org',
      ]);
    } finally {
      meta.remove();
    }
  });

  it('ignore the former build-time VITE_COOKIE_DOMAIN', () => {
    vi.stubEnv('VITE_COOKIE_DOMAIN', '.example.com');
    const writes = recordCookieWrites();
    saveBusinessCode('ACME1234');
    expect(writes).toEqual(['business_code=ACME1234; Max-Age=1296000; Path=/; SameSite=Lax']);
  });

  it('are Secure on https', () => {
    vi.stubGlobal('location', { ...window.location, protocol: 'https:' });
    const writes = recordCookieWrites();

    saveBusinessCode('ACME1234');

    expect(writes[0]).toMatch(/; Secure$/);
  });
});
