import { describe, expect, it } from 'vitest';

import { authPath, safeNextPath } from '../paths';

describe('safeNextPath', () => {
  it('keeps paths inside the app, queries and encoded characters included', () => {
    for (const path of [
      '/engage',
      '/engage/settings/profile',
      '/messages?conversation=42',
      '/engage/directory?search=John%20Doe',
      '/invite-user/join/abc%2Bdef',
    ]) {
      expect(safeNextPath(path), path).toBe(path);
    }
  });

  it('refuses anything a browser could read as another site', () => {
    for (const path of [
      null,
      undefined,
      '',
      'engage',
      'https://evil.com/',
      '//evil.com',
      '/\\evil.com',
      '/\t/evil.com',
      '/\n/evil.com',
      '/\r\n/evil.com',
      '\t//evil.com',
      ' /engage',
      '/ /evil.com',
      '/\u0000/evil.com',
      '/\u007f/evil.com',
      '/\u00a0/evil.com',
      '/\u2028/evil.com',
      '/engage\\..\\..\\evil.com',
      '/%09/evil',
      '/%0a/evil.com',
      '/%0D%0A/evil.com',
      '/%00/evil.com',
      '/%2F/evil.com',
      '/%2f%2fevil.com',
      '/%5C/evil.com',
      '/%252F/evil.com',
      '/%2509/evil',
      '/%E2%80%A8/evil.com',
      '/%E0%A4%A',
    ]) {
      expect(safeNextPath(path), JSON.stringify(path)).toBeNull();
    }
  });

  it('leaves a refused next out of login and sign-up links', () => {
    expect(authPath('/login', { next: '/\t/evil.com', email: 'a@b.c' })).toBe('/login?email=a%40b.c');
    expect(authPath('/signup', { next: '/messages?conversation=1' })).toBe(
      '/signup?next=%2Fmessages%3Fconversation%3D1',
    );
  });
});
