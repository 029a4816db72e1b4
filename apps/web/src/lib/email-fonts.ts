// Email previews render with the fonts most recipients get. MJML links Google Fonts for the web
// fonts a template names (a <link> and an @import); Gmail and Outlook ignore them and show the
// fallback stack, and the app's CSP (rightly) refuses them inside the preview frames. So previews
// drop those two lines and show the fallback fonts, with no request to Google and no CSP error.
const FONT_LINK = /<link\b[^>]*\bhref=["']?https:\/\/fonts\.(?:googleapis|gstatic)\.com[^>]*>/gi;
const FONT_IMPORT = /@import\s+url\(\s*["']?https:\/\/fonts\.(?:googleapis|gstatic)\.com[^)]*\)\s*;?/gi;

export function withoutWebFonts(html: string): string {
  return html.replace(FONT_LINK, '').replace(FONT_IMPORT, '');
}
