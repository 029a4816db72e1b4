import { describe, expect, it } from 'vitest';
import { withoutWebFonts } from '../email-fonts';

describe('withoutWebFonts', () => {
  it('drops the Google Fonts link and @import MJML writes, and keeps everything else', () => {
    const html = `<head><!--[if !mso]><!--><link href="https://fonts.googleapis.com/css?family=Ubuntu:300,400,500,700" rel="stylesheet" type="text/css"><style type="text/css">@import url(https://fonts.googleapis.com/css?family=Ubuntu:300,400,500,700);
p { font-family: Ubuntu, Helvetica, Arial, sans-serif; }</style><!--<![endif]--><link rel="stylesheet" href="https://example.com/x.css"></head>`;
    const out = withoutWebFonts(html);
    expect(out).not.toContain('fonts.googleapis.com');
    expect(out).toContain('font-family: Ubuntu, Helvetica, Arial, sans-serif;');
    expect(out).toContain('https://example.com/x.css');
  });
});
