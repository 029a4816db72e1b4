// The stored HTML of an email as staff may look at it: Titan's open pixel taken out and its click
// links pointed back at their destinations, so viewing an email (or a link in it) never records an
// open or a click; links open nothing from the sandboxed frame (`<base target="_blank">`, no pop-ups).
import { withoutWebFonts } from '../../../lib/email-fonts';

const PIXEL = /<img\b[^>]*\bsrc\s*=\s*["']?[^"'\s>]*\/t\/o\/[A-Za-z0-9_-]+\.gif["']?[^>]*>/gi;
const CLICK = /(\bhref\s*=\s*)(["']?)[^"'\s>]*\/t\/c\/([A-Za-z0-9_-]+)\2/gi;

/** A click token's destination (version, kind, 16-byte send id, URL, 16-byte tag), unverified. */
function destinationOf(token: string): string | null {
  try {
    const binary = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    if (bytes.length < 35) return null;
    const url = new TextDecoder().decode(bytes.subarray(18, bytes.length - 16));
    return /^https?:\/\/\S+$/i.test(url) ? url : null;
  } catch {
    return null;
  }
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export function previewHtml(html: string): string {
  const body = html
    .replace(PIXEL, '')
    .replace(CLICK, (whole, prefix: string, _quote: string, token: string) => {
      const url = destinationOf(token);
      return url ? `${prefix}"${attribute(url)}"` : whole;
    });
  return `<base target="_blank">${withoutWebFonts(body)}`;
}
