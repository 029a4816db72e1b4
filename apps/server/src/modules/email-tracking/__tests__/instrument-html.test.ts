// instrumentHtml: every http(s) link of an <a> goes through a signed click URL that decodes back to
// the original destination; unsubscribe, mailto:, tel:, anchors and marked links are left alone;
// the pixel lands before </body>. Tokens: any change to the send id, the URL or the tag is refused.
import { describe, expect, it } from 'vitest';
import { classifyHit, instrumentHtml } from '../email-tracking.service';
import { signToken, trackingKey, verifyToken } from '../email-tracking.tokens';

const SECRET = 'a-test-app-secret-of-at-least-32-characters';
const PUBLIC = 'https://titan.example';
const SEND = '0b7e8c1a-4d2f-4e6b-9a3c-5f1d2e3c4b5a';
const key = trackingKey(SECRET);

function clickTargets(html: string): string[] {
  return [...html.matchAll(/href="https:\/\/titan\.example\/t\/c\/([A-Za-z0-9_-]+)"/gi)].map((m) => {
    const token = verifyToken(key, m[1]!);
    if (token?.kind !== 'click') throw new Error('not a click token');
    expect(token.sendId).toBe(SEND);
    return token.url;
  });
}

describe('instrumentHtml', () => {
  it('rewrites http(s) links in any quoting and decodes entities before signing', () => {
    const html = `<html><body>
      <a href="https://shop.example/a?x=1&amp;y=2">A</a>
      <a class="btn" href='http://shop.example/b'>B</a>
      <a href=https://shop.example/c>C</a>
      <A HREF="HTTPS://shop.example/D">D</A>
    </body></html>`;
    const out = instrumentHtml(html, SEND, { publicUrl: PUBLIC, secret: SECRET });
    expect(clickTargets(out)).toEqual([
      'https://shop.example/a?x=1&y=2',
      'http://shop.example/b',
      'https://shop.example/c',
      'HTTPS://shop.example/D',
    ]);
    expect(out).toContain('class="btn"');
    expect(out).not.toContain('shop.example/a');
  });

  it('leaves mailto:, tel:, anchors, the unsubscribe link and marked links alone', () => {
    const html = `<body>
      <a href="mailto:help@shop.example">mail</a>
      <a href="tel:+15550100">call</a>
      <a href="#top">top</a>
      <a href="${PUBLIC}/engage/unsubscribe?token=abc">Unsubscribe</a>
      <a href="${PUBLIC}/api/email/unsubscribe/?token=abc">One click</a>
      <a data-titan-no-track href="https://shop.example/keep">keep</a>
      <link href="https://shop.example/style.css">
    </body>`;
    const out = instrumentHtml(html, SEND, { publicUrl: PUBLIC, secret: SECRET });
    expect(clickTargets(out)).toEqual([]);
    for (const kept of [
      'mailto:help@shop.example',
      'tel:+15550100',
      'href="#top"',
      `${PUBLIC}/engage/unsubscribe?token=abc`,
      `${PUBLIC}/api/email/unsubscribe/?token=abc`,
      'https://shop.example/keep',
      'https://shop.example/style.css',
    ])
      expect(out).toContain(kept);
  });

  it('adds one open pixel before </body>, or at the end without a body', () => {
    const out = instrumentHtml('<html><body><p>Hi</p></body></html>', SEND, {
      publicUrl: PUBLIC,
      secret: SECRET,
    });
    const pixel =
      /<img src="https:\/\/titan\.example\/t\/o\/([A-Za-z0-9_-]+)\.gif" width="1" height="1" alt=""[^>]*\/><\/body><\/html>$/.exec(
        out,
      );
    expect(pixel).not.toBeNull();
    expect(verifyToken(key, pixel![1]!)).toEqual({ kind: 'open', sendId: SEND });
    const bare = instrumentHtml('<p>Hi</p>', SEND, { publicUrl: `${PUBLIC}/`, secret: SECRET });
    expect(bare).toMatch(/^<p>Hi<\/p><img src="https:\/\/titan\.example\/t\/o\/[A-Za-z0-9_-]+\.gif"/);
  });
});

describe('tracking tokens', () => {
  const click = signToken(key, { kind: 'click', sendId: SEND, url: 'https://shop.example/a' });
  const open = signToken(key, { kind: 'open', sendId: SEND });
  const bytes = (t: string) => Buffer.from(t, 'base64url');
  const text = (b: Buffer) => b.toString('base64url');

  it('round-trips and is compact', () => {
    expect(verifyToken(key, click)).toEqual({ kind: 'click', sendId: SEND, url: 'https://shop.example/a' });
    expect(verifyToken(key, open)).toEqual({ kind: 'open', sendId: SEND });
    expect(open.length).toBeLessThanOrEqual(48);
  });

  it('refuses an altered send id, an altered URL, a truncated or foreign tag', () => {
    const sendAltered = bytes(click);
    sendAltered[5]! ^= 1;
    expect(verifyToken(key, text(sendAltered))).toBeNull();
    const urlAltered = bytes(click);
    urlAltered[20] = 'x'.charCodeAt(0);
    expect(verifyToken(key, text(urlAltered))).toBeNull();
    expect(verifyToken(key, click.slice(0, -2))).toBeNull();
    expect(verifyToken(key, open.slice(0, 10))).toBeNull();
    expect(verifyToken(trackingKey(`${SECRET}-other`), click)).toBeNull();
    expect(verifyToken(key, 'not a token!')).toBeNull();
    expect(verifyToken(key, '')).toBeNull();
  });

  it('uses a key of its own, not APP_SECRET itself', () => {
    const raw = key.export();
    expect(raw.equals(Buffer.from(SECRET))).toBe(false);
    expect(raw.length).toBe(32);
  });
});

describe('machine hits', () => {
  it('flags proxies, scanners, HEAD and missing agents; lets browsers through', () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
    expect(classifyHit('GET', chrome)).toEqual({ machine: false, reason: null });
    expect(classifyHit('HEAD', chrome)).toEqual({ machine: true, reason: 'head_request' });
    expect(classifyHit('GET', undefined)).toEqual({ machine: true, reason: 'no_user_agent' });
    expect(
      classifyHit(
        'GET',
        'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
      ).reason,
    ).toBe('google_image_proxy');
    expect(classifyHit('GET', 'Mozilla/5.0').reason).toBe('apple_mail_privacy_protection');
    expect(
      classifyHit('GET', 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html').reason,
    ).toBe('yahoo_proxy');
    expect(classifyHit('GET', 'Barracuda Sentinel (EE)').reason).toBe('barracuda');
    expect(classifyHit('GET', 'Mimecast-URL-Protect').reason).toBe('mimecast');
    expect(classifyHit('GET', 'Proofpoint URL Defense').reason).toBe('proofpoint');
    expect(classifyHit('GET', 'Mozilla/4.0 (compatible; ms-office; MSOffice 16)').reason).toBe(
      'microsoft_scanner',
    );
  });
});
