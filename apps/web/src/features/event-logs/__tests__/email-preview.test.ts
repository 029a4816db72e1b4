// What staff see of a sent email: no open pixel, click links back to their destinations.
import { describe, expect, it } from 'vitest';

import { previewHtml } from '../utils/email-preview';

/** A click token as the server makes one (the tag is not checked here). */
function clickToken(url: string): string {
  const bytes = [
    1,
    0x63,
    ...new Array<number>(16).fill(7),
    ...new TextEncoder().encode(url),
    ...new Array<number>(16).fill(9),
  ];
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

describe('previewHtml', () => {
  it('removes the pixel, restores link destinations and opens nothing from the frame', () => {
    const html =
      `<body><a href="https://titan.example/t/c/${clickToken('https://shop.example/a?x=1&y=2')}">A</a>` +
      '<a href="mailto:help@shop.example">mail</a>' +
      '<img src="https://titan.example/t/o/AbC-123_x.gif" width="1" height="1" alt="" /></body>';
    const out = previewHtml(html);
    expect(out).toContain('href="https://shop.example/a?x=1&amp;y=2"');
    expect(out).not.toContain('/t/c/');
    expect(out).not.toContain('/t/o/');
    expect(out).toContain('mailto:help@shop.example');
    expect(out.startsWith('<base target="_blank">')).toBe(true);
  });
});
