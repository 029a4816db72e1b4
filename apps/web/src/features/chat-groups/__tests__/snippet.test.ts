import { describe, expect, it } from 'vitest';

import { embedSnippet, IDENTITY_HOST_SNIPPET, IDENTITY_SERVER_SNIPPET } from '../utils/snippet';

describe('embed snippets', () => {
  it('embeds the business-wide widget without data-group', () => {
    expect(embedSnippet({ origin: 'https://chat.example.com', businessCode: 'ACME1234' })).toBe(
      '<script async src="https://chat.example.com/widget.js" data-business="ACME1234"></script>',
    );
  });

  it('embeds a group’s widget with data-group', () => {
    expect(
      embedSnippet({ origin: 'https://chat.example.com', businessCode: 'ACME1234', groupSlug: 'support' }),
    ).toBe(
      '<script async src="https://chat.example.com/widget.js" data-business="ACME1234" data-group="support"></script>',
    );
  });

  it('cannot be broken out of by a value', () => {
    expect(embedSnippet({ origin: 'https://x.example', businessCode: '"><b>' })).toBe(
      '<script async src="https://x.example/widget.js" data-business="&quot;>&lt;b>"></script>',
    );
  });

  it('shows how to sign a user id with HMAC-SHA256 and pass it to identify', () => {
    expect(IDENTITY_SERVER_SNIPPET).toContain("createHmac('sha256', process.env.TITAN_IDENTITY_SECRET)");
    expect(IDENTITY_SERVER_SNIPPET).toContain(".digest('hex')");
    expect(IDENTITY_HOST_SNIPPET).toContain("TitanChat('identify', {");
    for (const key of ['user_id', 'user_hash', 'name', 'email'])
      expect(IDENTITY_HOST_SNIPPET).toContain(`${key}:`);
  });
});
