import { describe, expect, it } from 'vitest';

import { markdownToSafeHtml } from '../markdown';

describe('markdownToSafeHtml', () => {
  it('renders headings, lists, tables and links (opening apart)', () => {
    const html = markdownToSafeHtml(
      '## Returns\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[Shop](https://shop.example)',
    );
    expect(html).toContain('<h2>Returns</h2>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<td>1</td>');
    expect(html).toContain(
      '<a href="https://shop.example" target="_blank" rel="noopener noreferrer nofollow">Shop</a>',
    );
  });

  it('drops scripts, handlers and javascript: links, whoever wrote them', () => {
    const html = markdownToSafeHtml(
      '<script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n[click](javascript:alert(3))\n\n<style>body{}</style>',
    );
    expect(html).not.toMatch(/script|onerror|javascript:|<style/i);
  });
});
