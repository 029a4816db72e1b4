// The one HTML escape: text (or an attribute value in double or single quotes) made safe to place
// in HTML, for the mails and pages the server writes by hand.
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
